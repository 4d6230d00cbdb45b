import CPango

/// Where a paragraph set on a grid breaks into lines of at most `columns` cells.
package enum GridLineBreaker {
    package enum Mode { case word, char }

    /// The byte ranges of the lines of `text` (UTF-8). Spaces at a break stay on the line
    /// they end and may hang past its last cell; a word longer than a line breaks between
    /// characters (never inside a cluster); every line takes at least one cluster.
    package static func lines(of text: UnsafeBufferPointer<UInt8>, columns: Int, mode: Mode) -> [Range<Int>] {
        var offsets: [Int] = [], widths: [Int] = [], isSpace: [Bool] = []
        offsets.reserveCapacity(text.count)
        GridCells.forEachCell(in: text) { offset, scalar, width in
            offsets.append(offset)
            widths.append(width)
            isSpace.append(scalar == 0x20 || scalar == 0x3000)
        }
        let n = offsets.count
        guard n > 0 else { return [0..<0] }
        var attrs = [PangoLogAttr](repeating: PangoLogAttr(), count: n + 1)
        text.withMemoryRebound(to: CChar.self) { chars in
            pango_get_log_attrs(chars.baseAddress, Int32(chars.count), -1, pango_language_get_default(), &attrs, Int32(n + 1))
        }
        var result: [Range<Int>] = []
        var start = 0
        while start < n {
            var used = 0, i = start
            var wordBreak = -1, clusterBreak = -1
            while i < n {
                if i > start {
                    if attrs[i].is_line_break != 0 { wordBreak = i }
                    if attrs[i].is_cursor_position != 0 { clusterBreak = i }
                }
                if used + widths[i] > columns && !isSpace[i] && i > start { break }
                used += widths[i]
                i += 1
            }
            if i == n {
                result.append(offsets[start]..<text.count)
                break
            }
            var end: Int
            if mode == .word && wordBreak > start {
                end = wordBreak
            } else if clusterBreak > start {
                end = clusterBreak
            } else {
                end = start + 1
                while end < n && attrs[end].is_cursor_position == 0 { end += 1 }
            }
            result.append(offsets[start]..<(end < n ? offsets[end] : text.count))
            start = end
        }
        return result
    }

    /// The bytes of the longest start of `text` that fits in `columns` cells, cut between
    /// clusters, without the spaces it ends with.
    package static func prefix(of text: UnsafeBufferPointer<UInt8>, fitting columns: Int) -> Int {
        var end = lines(of: text, columns: max(1, columns), mode: .char).first?.upperBound ?? 0
        while end > 0 && text[end - 1] == 0x20 { end -= 1 }
        return end
    }
}
