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
}
