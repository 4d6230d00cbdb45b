import Foundation
import SwiftPrint
import TestSupport
import Testing

/// Monospace text sits on a true character grid: every character takes the cells a terminal
/// gives it, whatever font draws it, and every line the same pitch.
@Suite struct CharacterGridTests {
    /// The top of each line's first word: the label ("English:", "Chinese:" …) that starts every
    /// line of the multilingual sample, always in the primary font, so their tops differ by
    /// exactly the pitch whatever the rest of the line needs.
    func lineTops(_ pdf: String) throws -> [Double] {
        var tops: [Double] = []
        for w in try PDF.words(pdf, page: 1) where w.word.hasSuffix(":") && w.word.first?.isLetter == true {
            if let last = tops.last, abs(w.yMin - last) < 1 { continue }
            tops.append(w.yMin)
        }
        return tops
    }

    @Test(arguments: [(nil, nil), (6.0, nil), (8.0, nil), (6.0, "DejaVu Sans 10"), (nil, "DejaVu Serif 12 --cpi")] as [(Double?, String?)])
    func everyLineHasThePitchWhateverItsFonts(lpi: Double?, font: String?) throws {
        // --lpi fixes the pitch in any font; a proportional font with --cpi is on the grid.
        var options: [String: String] = lpi.map { ["lpi": String($0)] } ?? [:]
        if let font {
            options["font"] = font.replacingOccurrences(of: " --cpi", with: "")
            if font.hasSuffix("--cpi") { options["cpi"] = "12" }
        }
        let (pdf, _, _) = try convert(PrintInput(path: TextTests.multilingual), options: options)
        let tops = try lineTops(pdf)
        try #require(tops.count >= 12, "\(tops)")
        let pitches = zip(tops.dropFirst(), tops).map { $0 - $1 }
        let expected = lpi.map { 72 / $0 } ?? pitches[0]
        for p in pitches { #expect(abs(p - expected) < 0.01, "pitches \(pitches)") }
    }

    /// A proportional font without cpi or lpi keeps the flowing layout: a line is as tall as
    /// its tallest font needs, so the CJK and Thai lines move the lines after them.
    @Test func aProportionalFontStillFlows() throws {
        let (pdf, _, _) = try convert(PrintInput(path: TextTests.multilingual), options: ["font": "DejaVu Sans 10"])
        let tops = try lineTops(pdf)
        let pitches = zip(tops.dropFirst(), tops).map { $0 - $1 }
        #expect(Set(pitches.map { ($0 * 10).rounded() }).count > 1, "\(pitches)")
    }

    /// Rows of a table in many scripts: each row's separators at the same x as every other's.
    /// Each cell holds four cells of the grid: four Latin letters, two ideographs, four
    /// halfwidth katakana, two Hangul syllables, two fullwidth letters, a four-letter Arabic
    /// word, Devanagari whose marks take no cell, two emoji, letters with combining accents.
    static let table = """
    | Latin | abcd | 1234 |
    | CJK   | 日本 | 中文 |
    | Kana  | ｱｲｳｴ | ﾊﾋﾌﾍ |
    | Hangul | 한국 | 어요 |
    | Full  | ＡＢ | ＣＤ |
    | Arabic | عربي | كتاب |
    | Hindi | नमस्ते | नमस्ते |
    | Emoji | 😀😀 | ✅✅ |
    | Marks | cafe\u{301} | x\u{301}y\u{301}zw |
    | Thai  | ไทยๆ | ไทยๆ |
    | Emoji2 | 🖨\u{FE0F}🖨\u{FE0F} | a\u{200D}bcd |

    """

    /// The x of every "|" on page 1, line by line (top to bottom), left to right.
    func separators(_ pdf: String) throws -> [[Double]] {
        let bars = try PDF.words(pdf, page: 1).filter { $0.word == "|" }
        var rows: [(y: Double, xs: [Double])] = []
        for bar in bars {
            if let i = rows.firstIndex(where: { abs($0.y - bar.yMin) < 3 }) { rows[i].xs.append(bar.xMin) } else { rows.append((bar.yMin, [bar.xMin])) }
        }
        return rows.sorted { $0.y < $1.y }.map { $0.xs.sorted() }
    }

    @Test(arguments: [nil, "DejaVu Sans Mono Bold 9", "Noto Sans Mono CJK JP 11"])
    func columnsLineUpAcrossScripts(font: String?) throws {
        // The labels are padded to the same cells in every row, so the separators after them
        // line up too.
        let text = Self.table.split(separator: "\n").map { row -> String in
            let parts = row.split(separator: "|", omittingEmptySubsequences: false)
            return "| " + parts[1].trimmingCharacters(in: .whitespaces).padding(toLength: 6, withPad: " ", startingAt: 0) + " |" + parts[2...].joined(separator: "|")
        }.joined(separator: "\n") + "\n"
        let options: [String: String] = font.map { ["font": $0] } ?? [:]
        let (pdf, _, _) = try convert(textFile(Array(text.utf8)), options: options)
        let rows = try separators(pdf)
        try #require(rows.count == 11, "\(rows)")
        for row in rows {
            try #require(row.count == 4, "every row has its four separators: \(rows)")
            for (x, reference) in zip(row, rows[0]) { #expect(abs(x - reference) < 0.1, "\(row) against \(rows[0])") }
        }
    }

    /// Wide characters centred in their cells still read as the words they make: each is one
    /// span of text as wide as its cells, so no gap reads as a word break.
    @Test func wideCharactersOnTheGridExtractAsWritten() throws {
        let lines = ["日本語のテキスト、シフトJISで書かれています。", "나는 유리를 먹을 수 있어요.", "ＦＵＬＬＷＩＤＴＨ ｶﾀｶﾅ", "表: | 日本 | 中文 |"]
        let (pdf, _, _) = try convert(textFile(Array((lines.joined(separator: "\n") + "\n").utf8)))
        let text = try PDF.text(pdf)
        for line in lines { #expect(text.contains(line), "\(text)") }
        // The spaces are invisible: the page looks as without them (no stray marks between cells).
        let words = try PDF.words(pdf, page: 1)
        #expect(words.contains { $0.word == "日本語のテキスト、シフトJISで書かれています。" })
    }

    /// A proportional font with characters per inch is set on the grid too: narrow and wide
    /// letters take a cell each (wide ones scaled down into it).
    @Test func charactersPerInchPutAProportionalFontOnTheGrid() throws {
        let text = "| iiii | 1234 |\n| WWWW | mmmm |\n| 日本 | ▒▒▒▒ |\n"
        let (pdf, _, _) = try convert(textFile(Array(text.utf8)), options: ["font": "DejaVu Sans 10", "cpi": "12"])
        let rows = try separators(pdf)
        try #require(rows.count == 3)
        // 12 characters per inch: 6 pt cells; separators 7 cells apart, at the same place in
        // every row (each "|" centred in its cell, so a little right of the cell's edge).
        // Within 0.3 pt: every narrow letter here is a span with two spaces (see
        // wideCharactersOnTheGridExtractAsWritten), and cairo writes each glyph's advance rounded
        // to a thousandth of an em without making up the difference, so after four such letters
        // a separator can be 0.1–0.25 pt early. (A monospace font's own glyphs need no spaces.)
        for row in rows {
            for (i, x) in row.enumerated() { #expect(abs(x - (rows[0][0] + Double(i) * 7 * 6)) < 0.3, "\(rows)") }
        }
        #expect(rows[0][0] >= 36 && rows[0][0] < 36 + 6)
    }

    /// A tab goes to the next multiple of 8 cells, counting wide characters as two.
    @Test func tabsCountCellsAfterWideCharacters() throws {
        let text = "a\tx\n日本\tx\n日本語日本\tx\nｱｲｳ\tx\nab\u{301}\tx\n"
        let (pdf, _, _) = try convert(textFile(Array(text.utf8)))
        let zero = try convert(textFile(Array("0000000000\n".utf8))).path
        let zeros = try #require(PDF.words(zero, page: 1).first)
        let cell = (zeros.xMax - zeros.xMin) / 10
        let xs = try PDF.words(pdf, page: 1).filter { $0.word == "x" }.sorted { $0.yMin < $1.yMin }.map(\.xMin)
        let expected = [8, 8, 16, 8, 8].map { 36 + Double($0) * cell }
        try #require(xs.count == expected.count, "\(xs)")
        for (x, e) in zip(xs, expected) { #expect(abs(x - e) < 0.1, "\(xs) against \(expected)") }
    }

    /// Justified text on the grid gets whole cells of space between words: every line but a
    /// paragraph's last ends on the last cell, and the words stay on the grid.
    @Test func justifiedLinesEndOnTheLastCell() throws {
        let words = (0..<60).map { ["lorem", "ipsum", "dolor", "sit", "amet", "日本語"][$0 % 6] }.joined(separator: " ")
        let (pdf, _, _) = try convert(textFile(Array((words + "\n").utf8)), options: ["alignment": "justified"])
        let all = try PDF.words(pdf, page: 1)
        var rows: [[(word: String, xMin: Double, yMin: Double, xMax: Double, yMax: Double)]] = []
        func middle(_ w: (word: String, xMin: Double, yMin: Double, xMax: Double, yMax: Double)) -> Double { (w.yMin + w.yMax) / 2 }
        for w in all { if let i = rows.firstIndex(where: { abs(middle($0[0]) - middle(w)) < 4 }) { rows[i].append(w) } else { rows.append([w]) } }
        try #require(rows.count >= 3)
        let ends = rows.map { $0.map(\.xMax).max()! }
        // A line ending in an ideograph ends ~1 pt short of its last cell: the glyph is centred.
        let last = ends.dropLast().max()!
        for end in ends.dropLast() { #expect(last - end < 1.5, "\(ends)") }
        #expect(ends.last! < last - 6, "the paragraph's last line is not stretched")
    }
}
