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
/// an object freed inside a job takes it again in its `deinit`.
///
/// What it costs an app: a thread that frees a formatter or renderer while another thread's job
/// runs waits for that job; and a job's callbacks (`progress`, raster `sheetWritten` and
/// `sheet`) run with the lock held, so one that waits for another thread (`DispatchQueue.main.sync`)
/// must not wait for a thread that frees such objects meanwhile.
package enum FontEngineLock {
    private static let lock = NSRecursiveLock()

    /// Runs `body` with the lock held.
    package static func held<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
