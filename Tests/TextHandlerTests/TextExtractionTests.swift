import Foundation
import SwiftPrint
import TestSupport
import Testing

/// What copy, paste and search in a viewer get: each script's words, read back by three text
/// extractors that read a page differently — poppler's pdftotext (Evince, Okular; it reads
/// ActualText), MuPDF's mutool and pdfminer (both read glyphs and the gaps between them) — on the
/// character grid (the monospace default) and off it (a proportional font).
@Suite struct TextExtractionTests {
    /// A line of each script; each of its words must come back whole.
    static let samples: [(script: String, line: String)] = [
        ("Hebrew", "דג סקרן שט בים"),
        ("Hebrew with niqqud", "שָׁלוֹם עֲלֵיכֶם"),
        ("Hebrew, Latin and digits", "Hello שלום 123 world"),
        ("Arabic with Latin", "مرحبا بالعالم hello"),
        ("Thai", "สวัสดีครับ ภาษาไทย"),
        ("Devanagari", "नमस्ते दुनिया"),
        ("CJK", "日本語のテキスト 中文"),
        ("Emoji with modifiers", "👍🏽 👨‍👩‍👧 ok"),
        ("Greek", "Καλημέρα κόσμε"),
        ("Armenian", "Բարեւ աշխարհ"),
    ]

    enum Setting: String, CaseIterable { case grid, proportional }
    enum Extractor: String, CaseIterable { case pdftotext, mutool, pdfminer }

    /// What these extractors cannot read back here, and why. A case listed here that starts to
    /// pass fails the test, so the list stays true.
    static let knownMisses: [String: String] = [
        // The marks are drawn after their letter's glyph in visual order; pdftotext attaches a
        // mark only to the character before it, pdfminer none. WeasyPrint's PDFs read worse.
        "Hebrew with niqqud/grid/pdftotext": "marks placed out of order",
        "Hebrew with niqqud/grid/pdfminer": "marks placed out of order",
        "Hebrew with niqqud/proportional/pdftotext": "marks placed out of order",
        "Hebrew with niqqud/proportional/pdfminer": "marks placed out of order",
        // A conjunct is several glyphs for several characters: cairo gives their text as
        // ActualText, which MuPDF 1.21 and pdfminer do not read.
        "Devanagari/grid/mutool": "conjuncts only in ActualText", "Devanagari/grid/pdfminer": "conjuncts only in ActualText",
        "Devanagari/proportional/mutool": "conjuncts only in ActualText", "Devanagari/proportional/pdfminer": "conjuncts only in ActualText",
        // An ideograph is narrower than its two cells; the gap is covered by ActualText only.
        "CJK/grid/mutool": "gaps between ideographs", "CJK/grid/pdfminer": "gaps between ideographs",
        // Colour emoji: a Type 3 glyph on the grid (no text for MuPDF and pdfminer), an image
        // with no text at all off it (pango draws colour glyphs of a layout line so).
        "Emoji with modifiers/grid/mutool": "Type 3 glyph", "Emoji with modifiers/grid/pdfminer": "Type 3 glyph",
        "Emoji with modifiers/proportional/pdftotext": "drawn as an image",
        "Emoji with modifiers/proportional/mutool": "drawn as an image",
        "Emoji with modifiers/proportional/pdfminer": "drawn as an image",
    ]

    /// The text `extractor` reads from `pdf`, canonically decomposed (extractors order a letter's
    /// marks differently) and without the direction marks pdftotext wraps right-to-left runs in.
    static func extract(_ pdf: String, with extractor: Extractor) throws -> String {
        let result: Tool.Result
        switch extractor {
        case .pdftotext: result = try Tool.run("pdftotext", [pdf, "-"])
        case .mutool: result = try Tool.run("mutool", ["draw", "-q", "-F", "txt", pdf])
        case .pdfminer: result = try Tool.run("pdf2txt", [pdf])
        }
        #expect(result.status == 0, "\(extractor): \(result.stderr)")
        return canonical(String(result.text.unicodeScalars.filter { !(0x200E...0x202E).contains($0.value) }.map(Character.init)))
    }

    static func canonical(_ s: String) -> String { (s as NSString).decomposedStringWithCanonicalMapping }

    static func convertLines(_ lines: [String], setting: Setting) throws -> String {
        let options = setting == .grid ? [:] : ["font": "DejaVu Sans 10"]
        return try convert(textFile(Array((lines.joined(separator: "\n") + "\n").utf8)), options: options).path
    }

    /// The words of `line` that `text` lacks.
    static func missingWords(of line: String, in text: String) -> [String] {
        line.split(separator: " ").map { canonical(String($0)) }.filter { !text.contains($0) }
    }

    @Test(arguments: samples.map(\.script), Setting.allCases)
    func everyWordOfAScriptCopiesWhole(script: String, setting: Setting) throws {
        let line = try #require(Self.samples.first { $0.script == script }?.line)
        let pdf = try Self.convertLines([line], setting: setting)
        for extractor in Extractor.allCases {
            let text = try Self.extract(pdf, with: extractor)
            let key = "\(script)/\(setting.rawValue)/\(extractor.rawValue)"
            if let reason = Self.knownMisses[key] {
                withKnownIssue(Comment(rawValue: reason)) {
                    #expect(Self.missingWords(of: line, in: text).isEmpty, "\(key): \(text.debugDescription)")
                }
            } else {
                #expect(Self.missingWords(of: line, in: text).isEmpty, "\(key): \(text.debugDescription)")
            }
        }
    }

    /// Hebrew was set a letter a cell on the grid, from a proportional face; every extractor
    /// then read the gaps as spaces: "ד ג סק ר ן".
    @Test func hebrewOnTheGridIsNotSpacedOut() throws {
        let pdf = try Self.convertLines(["דג סקרן שט בים"], setting: .grid)
        for extractor in Extractor.allCases {
            let text = try Self.extract(pdf, with: extractor)
            #expect(!text.contains("ד ג") && !text.contains("ב י"), "\(extractor): \(text.debugDescription)")
        }
    }

    /// Search, as a viewer does it: one document of every script, one word of each looked for in
    /// what pdftotext (poppler's search) reads.
    @Test(arguments: Setting.allCases)
    func aWordOfEachScriptIsFoundInOneDocument(setting: Setting) throws {
        let pdf = try Self.convertLines(Self.samples.map(\.line), setting: setting)
        let text = try Self.extract(pdf, with: .pdftotext)
        let searched = ["סקרן", "שלום", "بالعالم", "ภาษาไทย", "नमस्ते", "日本語", "Καλημέρα", "աշխարհ"]
        for word in searched { #expect(text.contains(Self.canonical(word)), "\(word) in \(setting)") }
    }
}
