/// Hangul syllables written as KS X 1001 make-up sequences, composed.
///
/// KS X 1001 has 2,350 precomposed syllables; any other is written (its Annex 3) as eight bytes:
/// the Hangul filler, then an initial consonant, a vowel and a final consonant (or the filler
/// again for none), each a compatibility jamo. glibc's iconv and ICU decode each of the four on
/// its own, so "똠" printed as "ㅤㄸㅗㅁ". This stage follows the decoder of EUC-KR text (and of
/// CP949, its superset, which keeps the same sequences) and turns each such sequence, now U+3164
/// and three jamo in UTF-8, into its syllable. A sequence that names no syllable (a consonant
/// cluster as initial, no vowel) is left as it is.
final class HangulComposition: UTF8ChunkSource {
    private let decoded: UTF8ChunkSource
    /// Bytes of a sequence that a chunk ended in the middle of, waiting for the next.
    private var carried: [UInt8] = []
    private var output: [UInt8] = []
    /// What `nextChunk` hands on, valid until the next call (a pointer into `output` may not
    /// outlive the closure that gives it).
    private var handed = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 0)
    private var ended = false
    var bytesRead: Int { decoded.bytesRead }

    init(_ decoded: UTF8ChunkSource) { self.decoded = decoded }
    deinit { handed.deallocate() }

    private func hand(_ bytes: [UInt8]) -> UnsafeBufferPointer<UInt8> {
        if handed.count < bytes.count {
            handed.deallocate()
            handed = .allocate(capacity: bytes.count)
        }
        _ = handed.initialize(from: bytes)
        return UnsafeBufferPointer(rebasing: handed[0..<bytes.count])
    }

    /// Whether text in `iconvName` can hold make-up sequences.
    static func applies(to iconvName: String) -> Bool {
        ["EUC-KR", "EUCKR", "CP949", "UHC", "EUC_KR"].contains(iconvName.uppercased())
    }

    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        while true {
            if ended { return nil }
            guard let chunk = try decoded.nextChunk() else {
                ended = true
                guard !carried.isEmpty else { return nil }
                defer { carried = [] }
                return hand(carried)
            }
            var input = carried
            input.append(contentsOf: chunk)
            carried = []
            output.removeAll(keepingCapacity: true)
            compose(input)
            if !output.isEmpty { return hand(output) }
        }
    }

    /// U+3164 HANGUL FILLER in UTF-8.
    private static let filler: [UInt8] = [0xE3, 0x85, 0xA4]
    /// A sequence: the filler and three jamo, three bytes each.
    private static let sequenceLength = 12

    /// Copies `input` to `output`, composing each whole sequence; keeps an unfinished one at the
    /// end in `carried`.
    private func compose(_ input: [UInt8]) {
        var i = 0
        let count = input.count
        while i < count {
            if input[i] == 0xE3 && i + 3 > count && isFillerPrefix(input[i...]) {
                // The filler may begin here and go on in the next chunk.
                carried = Array(input[i...])
                return
            }
            guard i + 2 < count, input[i + 1] == 0x85, input[i + 2] == 0xA4 else {
                output.append(input[i]); i += 1; continue
            }
            if i + Self.sequenceLength > count {
                carried = Array(input[i...])
                return
            }
            if let syllable = Self.syllable(jamo: (jamo(input, i + 3), jamo(input, i + 6), jamo(input, i + 9))) {
                appendUTF8(syllable)
                i += Self.sequenceLength
            } else {
                output.append(contentsOf: Self.filler)
                i += 3
            }
        }
    }

    /// Whether `rest` (shorter than the filler) is how the filler begins.
    private func isFillerPrefix(_ rest: ArraySlice<UInt8>) -> Bool {
        zip(rest, Self.filler).allSatisfy { $0 == $1 }
    }

    /// The compatibility jamo (U+3131…U+3164) whose UTF-8 starts at `at`, or nil.
    private func jamo(_ bytes: [UInt8], _ at: Int) -> UInt32? {
        guard bytes[at] == 0xE3, bytes[at + 1] == 0x84 || bytes[at + 1] == 0x85, bytes[at + 2] & 0xC0 == 0x80 else { return nil }
        let scalar = 0x3000 | UInt32(bytes[at + 1] & 0x3F) << 6 | UInt32(bytes[at + 2] & 0x3F)
        return (0x3131...0x3164).contains(scalar) ? scalar : nil
    }

    private func appendUTF8(_ scalar: UInt32) {
        // Hangul syllables (U+AC00…U+D7A3) take three bytes.
        output.append(0xE0 | UInt8(scalar >> 12))
        output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
        output.append(0x80 | UInt8(scalar & 0x3F))
    }

    /// The 19 initial consonants and the 27 finals, as compatibility jamo in the order of
    /// Unicode's syllable arithmetic.
    private static let initials = Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ".unicodeScalars.map(\.value))
    private static let finals = Array("ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ".unicodeScalars.map(\.value))
    /// The 21 vowels are contiguous: ㅏ (U+314F) to ㅣ (U+3163).
    private static let vowels: ClosedRange<UInt32> = 0x314F...0x3163
    private static let fillerScalar: UInt32 = 0x3164

    /// The syllable an initial, a vowel and a final (or the filler) make, or nil.
    static func syllable(jamo: (UInt32?, UInt32?, UInt32?)) -> UInt32? {
        guard let first = jamo.0, let initial = initials.firstIndex(of: first),
              let second = jamo.1, vowels.contains(second), let third = jamo.2 else { return nil }
        let final: Int
        if third == fillerScalar { final = 0 } else if let f = finals.firstIndex(of: third) { final = f + 1 } else { return nil }
        return 0xAC00 + UInt32((initial * 21 + Int(second - vowels.lowerBound)) * 28 + final)
    }
}
