import Foundation
import HandlerSupport

/// A text input opened for reading, with its encoding decided. It can be read from the start
/// as many times as a job needs (counting pages, then drawing; once per copy): standard input
/// and in-memory text are first copied to a scratch file (`SpooledInput`), removed once open.
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
        // Standard input and bytes become a scratch file first; once open, the file can go.
        let spooled = try SpooledInput(input)
        let fd = open(spooled.input.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PrintError.system(.inputUnreadable, path: input.path, "cannot open", errno: errno)
        }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw PrintError(.inputUnreadable, path: input.path, "is a directory, not a file")
        }
        self.fd = fd
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
    func makeLineReader(tabWidth: Int, countsCells: Bool = false) throws -> LineReader {
        guard lseek(fd, off_t(encoding.bomLength), SEEK_SET) >= 0 else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot read", errno: errno)
        }
        let raw = FileChunks(fd: fd, path: path)
        var chunks: UTF8ChunkSource = encoding.isValidatedUTF8 ? raw : try IconvChunks(raw: raw, encoding: encoding.iconvName, path: path)
        if HangulComposition.applies(to: encoding.iconvName) { chunks = HangulComposition(chunks) }
        return LineReader(source: chunks, tabWidth: tabWidth, countsCells: countsCells)
    }

    /// Every character other than ASCII that lines read from this text can hold, in one read
    /// from the start that leaves the file where it was (a reader in use goes on undisturbed).
    func nonASCIICharacters(tabWidth: Int) throws -> Set<UInt32> {
        let resume = lseek(fd, 0, SEEK_CUR)
        defer { lseek(fd, resume, SEEK_SET) }
        let reader = try makeLineReader(tabWidth: tabWidth)
        var found = Set<UInt32>()
        while true {
            switch try reader.next() {
            case .end: return found
            case .formFeed: continue
            case .line:
                guard !reader.lineIsASCII else { continue }
                for scalar in String(decoding: reader.line, as: UTF8.self).unicodeScalars where scalar.value >= 0x80 {
                    found.insert(scalar.value)
                }
            }
        }
    }

    private static func iconvKnows(_ name: String) -> Bool {
        guard let cd = iconv_open("UTF-8", name), cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }
}
