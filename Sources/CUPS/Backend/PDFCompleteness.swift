/// Whether the bytes of one document form a whole PDF: its header at the start, and a
/// `startxref` then `%%EOF` at the end. A filter that failed or was killed leaves neither.
public struct PDFCompleteness {
    private var head: [UInt8] = []
    private var tail: [UInt8] = []
    public private(set) var byteCount = 0

    public init() {}

    public mutating func add(_ bytes: [UInt8]) {
        byteCount += bytes.count
        if head.count < 5 { head.append(contentsOf: bytes.prefix(5 - head.count)) }
        tail.append(contentsOf: bytes)
        if tail.count > 1024 { tail.removeFirst(tail.count - 1024) }
    }

    public var isComplete: Bool {
        guard head == Array("%PDF-".utf8) else { return false }
        var end = tail.count
        while end > 0, [0x0A, 0x0D, 0x20, 0x09, 0x00].contains(tail[end - 1]) { end -= 1 }
        let eof = Array("%%EOF".utf8), startxref = Array("startxref".utf8)
        guard end >= eof.count, Array(tail[(end - eof.count)..<end]) == eof else { return false }
        // The last "startxref", then only an offset (digits and white space) before %%EOF.
        var i = end - eof.count - startxref.count
        while i >= 0, Array(tail[i..<(i + startxref.count)]) != startxref { i -= 1 }
        guard i >= 0 else { return false }
        let between = tail[(i + startxref.count)..<(end - eof.count)]
        let digits = between.filter { $0 >= 0x30 && $0 <= 0x39 }
        return !digits.isEmpty && between.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || [0x0A, 0x0D, 0x20, 0x09].contains($0) }
    }
}
