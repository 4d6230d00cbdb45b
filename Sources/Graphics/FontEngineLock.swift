import Foundation

/// One thread at a time in the process uses cairo's FreeType fonts and poppler: a job lays out,
/// draws, writes and rasterises its pages under this lock, and what holds fonts is freed under it.
///
/// Why: neither library lets two threads do this safely on Debian 12.
/// - cairo 1.16 keeps at most 10 FreeType faces open for the whole process. The thread that opens
///   an eleventh closes another thread's face, choosing one its lock count says is unused, read
///   without that face's lock; it may be a face another thread has just taken. It also opens faces
///   with `FT_New_Face` outside any lock, while FreeType allows one thread at a time to open and
///   close the faces of an `FT_Library`, and cairo has one for the process.
/// - poppler's cairo output shares one `FT_Library` among all its documents too, each document
///   locking only its own fonts.
///
/// Two jobs in one process whose text needs more than ten faces (multilingual text, emoji) then
/// crashed in FreeType now and then (about one run in thirty of the character-grid tests).
/// A job in a process of its own (the CLI, the CUPS filter) takes the lock once, uncontended.
///
/// The lock is recursive: a job takes it again for its parts (counting pages, then drawing), and
/// an object freed inside a job takes it again in its `deinit`. A job that waits for something
/// else (WebKit's print, in another process) lends it meanwhile (`lent`).
///
/// What it costs an app: a thread that frees a formatter or renderer while another thread's job
/// runs waits for that job; and a job's callbacks (`progress`, raster `sheetWritten` and
/// `sheet`) run with the lock held, so one that waits for another thread (`DispatchQueue.main.sync`)
/// must not wait for a thread that frees such objects meanwhile.
package enum FontEngineLock {
    // A recursive lock that its holder can lend (`lent`): the holder and how many times it
    // holds the lock.
    private struct Holding { var owner: pthread_t?; var depth = 0 }
    private static let condition = NSCondition()
    // Safe: read and written only with `condition` locked.
    nonisolated(unsafe) private static var holding = Holding()

    /// Runs `body` with the lock held.
    package static func held<T>(_ body: () throws -> T) rethrows -> T {
        let me = pthread_self()
        condition.lock()
        while let holder = holding.owner, pthread_equal(holder, me) == 0 { condition.wait() }
        holding.owner = me
        holding.depth += 1
        condition.unlock()
        defer {
            condition.lock()
            holding.depth -= 1
            if holding.depth == 0 { holding.owner = nil; condition.broadcast() }
            condition.unlock()
        }
        return try body()
    }

    /// Runs `body`, which uses no fonts, with the lock let go if this thread holds it, and
    /// takes it back after: other threads may use the engines while this one waits (for another
    /// process's answer, or for their work).
    package static func lent<T>(_ body: () throws -> T) rethrows -> T {
        let me = pthread_self()
        condition.lock()
        guard let holder = holding.owner, pthread_equal(holder, me) != 0 else {
            condition.unlock()
            return try body()
        }
        let saved = holding.depth
        holding.owner = nil
        holding.depth = 0
        condition.broadcast()
        condition.unlock()
        defer {
            condition.lock()
            while holding.owner != nil { condition.wait() }
            holding.owner = me
            holding.depth = saved
            condition.unlock()
        }
        return try body()
    }
}
