import CUchardet
import Foundation
import HandlerSupport

/// The encoding of a text input, and how it was decided.
///
/// Detection, in order (documented in swiftprint(1), docs/swiftprint.1.md):
/// 1. a byte-order mark: UTF-8, UTF-16LE/BE, UTF-32LE/BE;
/// 2. the whole input is valid UTF-8 (plain ASCII is too);
/// 3. uchardet's guess, when it is one of Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR (read as its
///    superset CP949), windows-1251, KOI8-R, ISO-8859-1, ISO-8859-15 or windows-1252;
///    A Latin guess (ISO-8859-1, windows-1252) is read as ISO-8859-15 when the text has no byte
///    in 0x80…0x9F (windows-1252's printables, C1 controls in ISO-8859) and has one of the eight
///    bytes ISO-8859-15 changed beside a letter, or 0xA4 (€ there, a rare ¤ otherwise): uchardet
///    names ISO-8859-15 text windows-1252, and œ would print as ½, € as ¤;
/// 4. otherwise windows-1252, which decodes every byte (ISO-8859-1 plus the C1 printables).
/// `--encoding NAME` skips all of this; any name iconv knows works.
public struct TextEncoding: Hashable, Sendable, CustomStringConvertible {
    /// The iconv name, e.g. `UTF-8`, `SHIFT_JIS`.
    public var iconvName: String
    /// Bytes of byte-order mark to skip at the start.
    public var bomLength: Int
    /// How it was decided: `bom`, `utf-8`, `guess`, `fallback`, `option`.
    public var source: String

    public var isUTF8: Bool { iconvName == "UTF-8" }
    /// UTF-8 that was checked byte for byte, so it needs no conversion. UTF-8 that was only
    /// named (by a BOM or an option) still goes through iconv, which replaces bad bytes.
    var isValidatedUTF8: Bool { isUTF8 && source == "utf-8" }
    public var description: String { "\(iconvName) (\(source))" }

    /// The names uchardet may give that we accept, and the iconv name each is read with.
    static let acceptedGuesses: [String: String] = [
        "SHIFT_JIS": "SHIFT_JIS", "EUC-JP": "EUC-JP", "GB18030": "GB18030", "BIG5": "BIG5",
        "EUC-KR": "CP949", "UHC": "CP949", "WINDOWS-1251": "WINDOWS-1251", "KOI8-R": "KOI8-R",
        "ISO-8859-1": "ISO-8859-1", "ISO-8859-15": "ISO-8859-15", "WINDOWS-1252": "WINDOWS-1252",
        "ASCII": "UTF-8", "UTF-8": "UTF-8",
    ]

    /// Decides the encoding of the file at `fd` by reading it from the start (it is left at an
    /// unknown offset). Also counts its lines (LF, CR and CRLF each end one).
    static func detect(fd: Int32, path: String) throws -> (encoding: TextEncoding, lineCount: Int) {
        var validator = UTF8Validator()
        var lines = 0, lastByte: UInt8 = 0, first = true
        let bomEncoding: TextEncoding? = try readChunks(fd: fd, path: path) { bytes in
            if first {
                first = false
                if let bom = bom(UnsafeBufferPointer(rebasing: bytes.prefix(4))) { return .stop(bom) }
            }
            for b in bytes {
                if b == 0x0A { if lastByte != 0x0D { lines += 1 } } else if b == 0x0D { lines += 1 }
                lastByte = b
            }
            if validator.isValid { validator.feed(bytes) }
            return .more
        }
        if let bomEncoding { return (bomEncoding, 0) }
        if !first && lastByte != 0x0A && lastByte != 0x0D { lines += 1 }
        if validator.isValid && validator.isComplete {
            return (TextEncoding(iconvName: "UTF-8", bomLength: 0, source: "utf-8"), lines)
        }
        return (try guess(fd: fd, path: path), lines)
    }

    /// uchardet's guess from the first 4 MiB, if it is one we accept.
    private static func guess(fd: Int32, path: String) throws -> TextEncoding {
        guard lseek(fd, 0, SEEK_SET) == 0 else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot read", errno: errno)
        }
        let detector = uchardet_new()
        defer { uchardet_delete(detector) }
        var fed = 0
        var latin9 = Latin9Evidence()
        _ = try readChunks(fd: fd, path: path) { (bytes: UnsafeBufferPointer<UInt8>) -> ChunkAction<TextEncoding> in
            _ = bytes.withMemoryRebound(to: CChar.self) { uchardet_handle_data(detector, $0.baseAddress, $0.count) }
            latin9.feed(bytes)
            fed += bytes.count
            return fed >= 4 << 20 ? .stop(nil) : .more
        }
        uchardet_data_end(detector)
        let name = String(cString: uchardet_get_charset(detector)).uppercased()
        let accepted = acceptedGuesses[name].flatMap { $0 == "UTF-8" ? nil : $0 }
        if (accepted == nil || accepted == "ISO-8859-1" || accepted == "WINDOWS-1252"), latin9.isLatin9 {
            return TextEncoding(iconvName: "ISO-8859-15", bomLength: 0, source: "guess")
        }
        if let accepted { return TextEncoding(iconvName: accepted, bomLength: 0, source: "guess") }
        return TextEncoding(iconvName: "WINDOWS-1252", bomLength: 0, source: "fallback")
    }

    /// Whether Latin text reads as ISO-8859-15 rather than ISO-8859-1 or windows-1252 (see
    /// `detect`), from the bytes where they differ.
    struct Latin9Evidence {
        private var c1 = 0, changed = 0
        private var previous: UInt8 = 0x20, previousChanged = false

        var isLatin9: Bool { c1 == 0 && changed > 0 }

        /// A letter in all three: ASCII letters and the accented ones, 0xC0…0xFF but × and ÷.
        @inline(__always) private static func isLetter(_ b: UInt8) -> Bool {
            (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || (b >= 0xC0 && b != 0xD7 && b != 0xF7)
        }

        /// The bytes ISO-8859-15 changed: € Š š Ž ž Œ œ Ÿ for ¤ ¦ ¨ ´ ¸ ¼ ½ ¾.
        @inline(__always) private static func isChanged(_ b: UInt8) -> Bool {
            b == 0xA4 || b == 0xA6 || b == 0xA8 || b == 0xB4 || b == 0xB8 || b == 0xBC || b == 0xBD || b == 0xBE
        }

        mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
            for b in bytes {
                if b >= 0x80 && b <= 0x9F { c1 += 1 }
                let isChanged = Self.isChanged(b)
                if isChanged && (b == 0xA4 || Self.isLetter(previous)) { changed += 1 }
                if previousChanged && Self.isLetter(b) { changed += 1 }
                previousChanged = isChanged
                previous = b
            }
        }
    }

    enum ChunkAction<T> { case more, stop(T?) }

    /// Calls `body` with each 1 MiB chunk of `fd` until it says stop or the file ends.
    static func readChunks<T>(fd: Int32, path: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> ChunkAction<T>) throws -> T? {
        let size = 1 << 20
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw PrintError.system(.inputUnreadable, path: path, "cannot read", errno: errno)
            }
            if n == 0 { return nil }
            if case .stop(let value) = try body(UnsafeBufferPointer(rebasing: buffer[0..<n])) { return value }
        }
    }

    /// The encoding a byte-order mark at the start says, if there is one.
    static func bom(_ b: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
        func has(_ p: [UInt8]) -> Bool { b.count >= p.count && zip(b, p).allSatisfy { $0 == $1 } }
        if has([0xFF, 0xFE, 0, 0]) { return TextEncoding(iconvName: "UTF-32LE", bomLength: 4, source: "bom") }
        if has([0, 0, 0xFE, 0xFF]) { return TextEncoding(iconvName: "UTF-32BE", bomLength: 4, source: "bom") }
        if has([0xEF, 0xBB, 0xBF]) { return TextEncoding(iconvName: "UTF-8", bomLength: 3, source: "bom") }
        if has([0xFF, 0xFE]) { return TextEncoding(iconvName: "UTF-16LE", bomLength: 2, source: "bom") }
        if has([0xFE, 0xFF]) { return TextEncoding(iconvName: "UTF-16BE", bomLength: 2, source: "bom") }
        return nil
    }
}

/// Checks UTF-8 validity across chunk boundaries.
struct UTF8Validator {
    private(set) var isValid = true
    private var pending = 0       // continuation bytes still expected
    private var lowerBound: UInt8 = 0x80, upperBound: UInt8 = 0xBF  // for the next continuation byte

    var isComplete: Bool { pending == 0 }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if pending == 0 {
                // Skip runs of ASCII quickly.
                if b < 0x80 { i += 1; continue }
                switch b {
                case 0xC2...0xDF: pending = 1; lowerBound = 0x80; upperBound = 0xBF
                case 0xE0: pending = 2; lowerBound = 0xA0; upperBound = 0xBF
                case 0xE1...0xEC, 0xEE, 0xEF: pending = 2; lowerBound = 0x80; upperBound = 0xBF
                case 0xED: pending = 2; lowerBound = 0x80; upperBound = 0x9F
                case 0xF0: pending = 3; lowerBound = 0x90; upperBound = 0xBF
                case 0xF1...0xF3: pending = 3; lowerBound = 0x80; upperBound = 0xBF
                case 0xF4: pending = 3; lowerBound = 0x80; upperBound = 0x8F
                default: isValid = false; return
                }
            } else {
                guard b >= lowerBound && b <= upperBound else { isValid = false; return }
                pending -= 1
                lowerBound = 0x80; upperBound = 0xBF
            }
            i += 1
        }
    }
}
