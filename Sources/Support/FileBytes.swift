import Foundation

/// A whole file's bytes. For any file a job or a document names, in place of
/// `FileManager.contents(atPath:)`, `Data(contentsOf:)` and `String(contentsOfFile:)`: on Linux
/// those read a file whose size is 0 into a 4 KB buffer they never free when it stays empty
/// (swift-foundation's zero-size path in Data+Reading.swift), 4 KB lost per empty document.
/// Found by the fuzz targets' leak check (FUZZING.md).
package enum FileBytes {
    /// The bytes at `path`, or nil (errno says why) when it cannot be opened or read.
    package static func read(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do { return try handle.readToEnd() ?? Data() } catch { return nil }
    }

    /// Gives `count` bytes of the file open on `descriptor`, from `offset`, to `write` a piece at
    /// a time, never holding more than one piece; stops early, with no failure, when `write`
    /// returns false (the reader failed and says why itself). Returns nil, or why not: errno,
    /// or 0 when the file ended before `count` bytes.
    package static func copy(_ descriptor: Int32, from offset: Int64, count: Int64, to write: (UnsafeRawBufferPointer) -> Bool) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var done: Int64 = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Int(min(Int64($0.count), count - done)), off_t(offset + done)) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { return errno }
            if n == 0 { return 0 }
            guard buffer.withUnsafeBytes({ write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) else { return nil }
            done += Int64(n)
        }
        return nil
    }
}
