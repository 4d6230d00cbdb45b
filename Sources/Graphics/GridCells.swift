import CPango

/// How many cells of a character grid a character takes: as a terminal gives it (wcwidth, by
/// Unicode's East Asian Width), read from GLib's tables, which GNOME's terminal uses too.
///
/// - Wide (W) and fullwidth (F) characters: 2 — ideographs, kana, Hangul syllables, fullwidth
///   Latin, and emoji shown as emoji (East Asian Width gives those W).
/// - Combining marks (Mn, Me), format characters (Cf: joiners, direction marks, variation
///   selectors), Hangul medial vowels and final consonants, and the zero-width space: 0.
/// - Everything else, East Asian Ambiguous included (Greek, Cyrillic, box drawing): 1.
///
/// One addition terminals now make too: a character followed by the emoji variation selector
/// (U+FE0F), which asks for it to be shown as emoji, takes 2 cells: `forEachCell` counts the
/// selector itself as the one cell more.
package enum GridCells {
    @inline(__always)
    package static func of(_ scalar: UInt32) -> Int {
        if scalar < 0x7F { return scalar >= 0x20 ? 1 : 0 }
        if g_unichar_iszerowidth(scalar) != 0 { return 0 }
        return g_unichar_iswide(scalar) != 0 ? 2 : 1
    }

    /// The emoji variation selector: the character before it is shown as an emoji.
    static let emojiPresentation: UInt32 = 0xFE0F

    /// The cells of UTF-8 `bytes` (valid UTF-8, as the text reader hands on).
    package static func of(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var cells = 0
        forEachCell(in: bytes) { _, _, width in cells += width }
        return cells
    }

    /// Calls `body` with each scalar of UTF-8 `bytes`, the offset of its first byte and its
    /// cells, the emoji variation selector after a one-cell character taking the one more.
    @inline(__always)
    package static func forEachCell(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, UInt32, Int) -> Void) {
        var previous = 0
        forEachScalar(in: bytes) { offset, scalar in
            var width = of(scalar)
            if scalar == emojiPresentation && previous == 1 { width = 1 }
            body(offset, scalar, width)
            previous = width
        }
    }

    /// Calls `body` with each scalar of UTF-8 `bytes` and the offset of its first byte.
    @inline(__always)
    package static func forEachScalar(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int, UInt32) -> Void) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = UInt32(bytes[i])
            var scalar = b, length = 1
            if b >= 0xF0, i + 3 < n {
                scalar = (b & 0x07) << 18 | (UInt32(bytes[i + 1]) & 0x3F) << 12 | (UInt32(bytes[i + 2]) & 0x3F) << 6 | (UInt32(bytes[i + 3]) & 0x3F)
                length = 4
            } else if b >= 0xE0, i + 2 < n {
                scalar = (b & 0x0F) << 12 | (UInt32(bytes[i + 1]) & 0x3F) << 6 | (UInt32(bytes[i + 2]) & 0x3F)
                length = 3
            } else if b >= 0xC0, i + 1 < n {
                scalar = (b & 0x1F) << 6 | (UInt32(bytes[i + 1]) & 0x3F)
                length = 2
            }
            body(i, scalar)
            i += length
        }
    }
}
