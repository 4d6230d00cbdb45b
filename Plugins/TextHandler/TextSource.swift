import Foundation
import SwiftPrintCore

/// A text input opened for reading, with its encoding decided. It can be read from the start
/// as many times as a job needs (counting pages, then drawing; once per copy): standard input
/// and in-memory text are first copied to an unlinked temporary file.
final class TextSource {
    let path: String
    let encoding: TextEncoding
    /// Lines in the input (for the width of the line-number gutter).
    let lineCount: Int
    /// Bytes in the input (for progress).
    let byteCount: Int
    private let fd: Int32

    /// Opens `input`. `encodingName` overrides detection.
    init(input: PrintInput, encodingName: String?) throws {
        path = input.path
        if let data = input.data {
            fd = try Self.spool(path: input.path) { write in try data.withUnsafeBytes { try write($0) } }
        } else if input.path == "-" {
            fd = try Self.spool(path: "-") { write in
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
                defer { buffer.deallocate() }
                while true {
                    let n = read(STDIN_FILENO, buffer.baseAddress, buffer.count)
                    if n < 0 { if errno == EINTR { continue }; throw PrintError.system(.inputUnreadable, path: "-", "cannot read", errno: errno) }
                    if n == 0 { break }
                    try write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                }
            }
        } else {
            let fd = open(input.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw PrintError.system(.inputUnreadable, path: input.path, "cannot open", errno: errno)
            }
            var st = stat()
            if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw PrintError(.inputUnreadable, path: input.path, "is a directory, not a file")
            }
            self.fd = fd
        }
        var st = stat()
        byteCount = fstat(fd, &st) == 0 ? Int(st.st_size) : 0
        if let encodingName {
            // Still skip a BOM that matches the named encoding family.
            encoding = TextEncoding(iconvName: encodingName.uppercased(), bomLength: 0, source: "option")
            lineCount = max(1, byteCount / 40)
        } else {
            (encoding, lineCount) = try TextEncoding.detect(fd: fd, path: input.path)
        }
        guard encoding.isUTF8 || Self.iconvKnows(encoding.iconvName) else {
            close(fd)
            throw PrintError(.invalidOption, path: input.path, "unknown text encoding \(encoding.iconvName) (iconv does not know it)")
        }
    }

    deinit { close(fd) }

    /// A fresh reader from the start of the text.
    func makeLineReader(tabWidth: Int) throws -> LineReader {
        guard lseek(fd, off_t(encoding.bomLength), SEEK_SET) >= 0 else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot read", errno: errno)
        }
        let raw = FileChunks(fd: fd, path: path)
        let chunks: UTF8ChunkSource = encoding.isValidatedUTF8 ? raw : try IconvChunks(raw: raw, encoding: encoding.iconvName, path: path)
        return LineReader(source: chunks, tabWidth: tabWidth)
    }

    private static func iconvKnows(_ name: String) -> Bool {
        guard let cd = iconv_open("UTF-8", name), cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }

    /// Copies bytes into an unlinked temporary file and returns it open for reading.
    private static func spool(path: String, _ fill: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Int32 {
        let dir = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        guard let (fd, temp) = TemporaryFiles.make(in: dir, prefix: "swiftprint-input.") else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot make a temporary copy", errno: errno)
        }
        unlink(temp)
        do {
            try fill { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw PrintError.system(.inputUnreadable, path: path, "cannot make a temporary copy", errno: errno)
                    }
                    offset += n
                }
            }
        } catch { close(fd); throw error }
        lseek(fd, 0, SEEK_SET)
        return fd
    }
}
