import Foundation
import TestSupport
@testable import TextHandler
import Testing

/// EUC-KR text with KS X 1001 make-up sequences (eight bytes: the filler and three jamo) for the
/// syllables outside its 2,350, as CPython's `euc_kr` codec writes and reads them; glibc's iconv
/// reads each as four separate jamo.
@Suite struct HangulCompositionTests {
    /// "똠", "쀍", "햏", "펲", "뷁" are not among KS X 1001's syllables; the rest are.
    static let text = "똠방각하 쀍 햏 펲 뷁 - 한국어 텍스트입니다. 서울은 대한민국의 수도입니다. 나는 유리를 먹을 수 있어요."

    /// The text as CPython's `euc_kr` codec encodes it, checked to decode back to itself there.
    static func pythonEUCKR(_ text: String) throws -> [UInt8] {
        let script = "import sys; t = sys.stdin.buffer.read().decode('utf-8'); b = t.encode('euc_kr'); "
            + "assert b.decode('euc_kr') == t; sys.stdout.buffer.write(b)"
        let r = try Tool.run("python3", ["-c", script], stdin: Data(text.utf8))
        try #require(r.status == 0, "\(r.stderr)")
        return Array(r.stdout)
    }

    @Test(arguments: [nil, "EUC-KR", "CP949"] as [String?])
    func madeUpSyllablesPrintAsSyllables(encoding: String?) throws {
        let bytes = try Self.pythonEUCKR(Self.text + "\n")
        #expect(bytes.count > Self.text.unicodeScalars.count + 30, "the uncommon syllables are make-up sequences")
        let options = encoding.map { ["encoding": $0] } ?? [:]
        let (pdf, _, formatter) = try convert(textFile(bytes), options: options)
        if encoding == nil { #expect(formatter.detectedEncoding?.iconvName == "CP949") }
        let extracted = try PDF.text(pdf)
        #expect(squash(extracted).contains(squash(Self.text)), "\(extracted)")
        #expect(!extracted.contains("\u{3164}"), "no filler is left")
    }

    /// A sequence that names no syllable (a consonant cluster as initial) stays as its jamo, and
    /// a filler alone stays a filler.
    @Test func aSequenceThatNamesNoSyllableIsKept() throws {
        // Filler, ㄳ (not an initial), ㅏ, filler; then a lone filler before "가".
        let bytes: [UInt8] = [0xA4, 0xD4, 0xA4, 0xA3, 0xA4, 0xBF, 0xA4, 0xD4, 0x20, 0xA4, 0xD4, 0xB0, 0xA1, 0x0A]
        let utf8 = try iconv(bytes)
        #expect(compose(utf8, cutAt: []) == "\u{3164}ㄳㅏ\u{3164} \u{3164}가\n")
    }

    /// A sequence cut between the decoder's chunks anywhere, at every byte, comes out the same.
    @Test func aSequenceCutBetweenChunksIsComposed() throws {
        let utf8 = try iconv(Self.pythonEUCKR("똠 햏\n"))
        #expect(compose(utf8, cutAt: []) == "똠 햏\n")
        for cut in 1..<utf8.count {
            #expect(compose(utf8, cutAt: [cut]) == "똠 햏\n", "cut at \(cut)")
        }
        #expect(compose(utf8, cutAt: Array(1..<utf8.count)) == "똠 햏\n", "a byte a chunk")
    }

    /// EUC-KR bytes in UTF-8 as glibc's iconv reads them (a make-up sequence as four jamo).
    func iconv(_ bytes: [UInt8]) throws -> [UInt8] {
        let r = try Tool.run("iconv", ["-f", "CP949", "-t", "UTF-8"], stdin: Data(bytes))
        try #require(r.status == 0, "\(r.stderr)")
        return Array(r.stdout)
    }

    /// `utf8` through the composition, handed to it in pieces cut at `cutAt`.
    func compose(_ utf8: [UInt8], cutAt cuts: [Int]) -> String {
        let bounds = [0] + cuts + [utf8.count]
        let pieces = zip(bounds, bounds.dropFirst()).map { Array(utf8[$0..<$1]) }
        let composed = HangulComposition(PiecesSource(pieces: pieces))
        var produced: [UInt8] = []
        while let chunk = try? composed.nextChunk() { produced.append(contentsOf: chunk) }
        return String(decoding: produced, as: UTF8.self)
    }
}

/// UTF-8 handed on in given pieces: what the decoder before the composition gives.
private final class PiecesSource: UTF8ChunkSource {
    private var pieces: [[UInt8]]
    private var current: [UInt8] = []
    private(set) var bytesRead = 0
    init(pieces: [[UInt8]]) { self.pieces = pieces }
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        guard !pieces.isEmpty else { return nil }
        current = pieces.removeFirst()
        bytesRead += current.count
        return current.withUnsafeBufferPointer { $0 }
    }
}
