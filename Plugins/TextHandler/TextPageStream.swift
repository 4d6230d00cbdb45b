import CCairo
import Foundation
import Logging
import SwiftPrintCore

/// Lays plain text out page by page: the lines of one page at a time, from a `LineReader`.
/// Plain-ASCII paragraphs are broken with `FastGlyphs`; all others are shaped by pango.
final class TextPageStream: FormattedPageStream, ProgressEstimating {
    let style: TextStyle
    let geometry: TextGeometry
    private let fonts: FontSystem
    private let fast: FastGlyphs?
    private let reader: LineReader
    private let source: TextSource
    private let coverage: FontCoverage
    private let logger: Logger
    private var pending: [TextPage.Line] = []     // laid out, not yet placed (spill to the next page)
    private var pendingStore: [UInt8] = []        // ASCII bytes of pending lines
    private var breaks: [(range: Range<Int>, width: Double)] = []
    private var finished = false
    private var lastPageEndedByFormFeed = false

    init(source: TextSource, style: TextStyle, fonts: FontSystem, coverage: FontCoverage, logger: Logger) throws {
        self.source = source
        self.style = style
        self.fonts = fonts
        self.coverage = coverage
        self.logger = logger
        geometry = TextGeometry(style: style, fonts: fonts, lineCount: source.lineCount)
        fast = FastGlyphs(fonts: fonts, font: geometry.font)
        reader = try source.makeLineReader(tabWidth: style.tabWidth)
        if fonts.largeFontCuts == nil {
            fonts.largeFontCuts = LargeFontCuts(characters: { [source, style, logger] in
                do {
                    // Besides the text's own: all of printable ASCII (a fallback font draws the
                    // spaces and digits amid its script's text), and what the layout adds (an
                    // ellipsis, a hyphen at a break).
                    var characters = try source.nonASCIICharacters(tabWidth: style.tabWidth)
                    characters.formUnion(0x20...0x7E)
                    characters.formUnion([0x2026, 0x2010])
                    return Array(characters)
                } catch {
                    logger.notice("fonts are embedded whole: \(error)")
                    return nil
                }
            }, report: { [logger] in logger.notice("\($0)") })
        }
    }

    deinit { coverage.report(to: logger, file: source.path == "-" ? "standard input" : source.path) }

    var fractionDone: Double? {
        source.byteCount > 0 ? Double(reader.bytesRead) / Double(source.byteCount) : nil
    }

    func nextPage(fitting size: CGSize) throws -> FormattedPage? {
        let columns = max(1, style.columns)
        let columnWidth = max(1, (size.width - style.columnGap * Double(columns - 1)) / Double(columns))
        let textWidth = max(1, columnWidth - geometry.numberGutter)
        let page = TextPage(geometry: geometry, fast: fast, columnWidth: columnWidth, columnGap: style.columnGap,
                            clips: !style.wraps, color: style.color)
        var column = 0, y = 0.0
        var endPage = false, endedByFormFeed = false
        while !endPage {
            if pending.isEmpty {
                if finished { break }
                switch try reader.next() {
                case .end:
                    finished = true
                case .formFeed:
                    // A form feed ends a page with text on it; right after another form feed it
                    // makes a blank page; at the top of any other page it changes nothing.
                    if !page.lines.isEmpty || lastPageEndedByFormFeed { endedByFormFeed = true; endPage = true }
                    continue
                case .line:
                    if reader.isContinuation && !style.wraps { continue }  // a clipped line shows its start only
                    layOutParagraph(width: textWidth)
                }
                continue
            }
            // Place pending lines while they fit; a page always takes at least one line.
            while let line = pending.first {
                if y + line.advance > size.height + 0.001, !(y == 0 && column == 0 && page.lines.isEmpty) {
                    column += 1
                    y = 0
                    if column == columns { endPage = true }
                    break
                }
                var placed = line
                placed.column = column
                placed.baseline = y + line.baseline
                if case .ascii(let range) = line.content {
                    let start = page.store.count
                    page.store.append(contentsOf: pendingStore[range])
                    placed.content = .ascii(start..<page.store.count)
                } else if case .truncatedASCII(let range) = line.content {
                    let start = page.store.count
                    page.store.append(contentsOf: pendingStore[range])
                    placed.content = .truncatedASCII(start..<page.store.count)
                }
                page.lines.append(placed)
                y += line.advance
                pending.removeFirst()
            }
            if pending.isEmpty { pendingStore.removeAll(keepingCapacity: true) }
        }
        lastPageEndedByFormFeed = endedByFormFeed
        if page.lines.isEmpty && !endedByFormFeed { return nil }
        return page
    }

    /// Breaks the reader's current line into visual lines and queues them.
    private func layOutParagraph(width: Double) {
        let number = reader.isContinuation ? nil : (style.lineNumbers ? reader.lineNumber : nil)
        let pitch = geometry.pitch
        if reader.lineIsASCII, let fast, style.alignment != .justified {
            reader.line.withUnsafeBufferPointer { bytes in
                switch style.lineBreakMode {
                case .word, .char:
                    fast.breakLines(bytes, maxWidth: width, wordWrap: style.lineBreakMode == .word, into: &breaks)
                case .clip, .truncate:
                    breaks.removeAll(keepingCapacity: true)
                    breaks.append((0..<bytes.count, fast.width(bytes)))
                }
                for (i, b) in breaks.enumerated() {
                    let start = pendingStore.count
                    var w = b.width
                    var truncated = false
                    if style.lineBreakMode == .truncate, w > width, let ell = fast.ellipsis {
                        // Keep what fits before the ellipsis.
                        var keep = b.range.lowerBound, kw = 0.0
                        while keep < b.range.upperBound, kw + fast.advance(of: bytes[keep]) <= width - ell.advance {
                            kw += fast.advance(of: bytes[keep]); keep += 1
                        }
                        pendingStore.append(contentsOf: bytes[b.range.lowerBound..<keep])
                        w = kw + ell.advance
                        truncated = true
                    } else {
                        pendingStore.append(contentsOf: bytes[b.range])
                    }
                    let range = start..<pendingStore.count
                    pending.append(TextPage.Line(content: truncated ? .truncatedASCII(range) : .ascii(range),
                                                 x: alignedX(width: w, in: width), baseline: geometry.baseline,
                                                 advance: pitch, number: i == 0 ? number : nil))
                }
            }
            return
        }
        let layout = TextLayout(fonts: fonts)
        layout.setFont(geometry.font)
        layout.setAlignment(style.alignment)
        switch style.lineBreakMode {
        case .word: layout.setWidth(width); layout.setWrap(.wordChar)
        case .char: layout.setWidth(width); layout.setWrap(.char)
        case .clip: layout.setWidth(nil)
        case .truncate: layout.setWidth(width); layout.setEllipsizeEnd(true)
        }
        reader.line.withUnsafeBufferPointer { layout.setText($0) }
        if layout.unknownGlyphCount > 0 { coverage.record(layout.unknownCharacters()) }
        layout.makeLargeFontCuts()
        let paragraph = TextPage.Paragraph(layout: layout)
        for (i, m) in layout.lineMetrics().enumerated() {
            let ascent = max(geometry.baseline, m.ascent)
            let advance = max(pitch, ascent + m.descent)
            let x = style.lineBreakMode == .clip ? unwrappedX(of: m, in: width) : m.x
            pending.append(TextPage.Line(content: .pango(paragraph, i), x: x, baseline: ascent,
                                         advance: advance, number: i == 0 ? number : nil))
        }
    }

    /// Where an unwrapped (clipped) pango line starts. Without a width pango aligns nothing, so
    /// this aligns it as pango aligns wrapped lines: left and right swap in a right-to-left
    /// paragraph (its "left" is its start edge), justified is its start edge. A line wider
    /// than the column shows its start, as the clip keeps it: the right end for right-to-left text.
    private func unwrappedX(of line: LineMetrics, in width: Double) -> Double {
        if line.width > width { return line.isRightToLeft ? width - line.width : 0 }
        var alignment = style.alignment == .justified ? .left : style.alignment
        if line.isRightToLeft { alignment = alignment == .left ? .right : alignment == .right ? .left : alignment }
        switch alignment {
        case .left, .justified: return 0
        case .center: return (width - line.width) / 2
        case .right: return width - line.width
        }
    }

    private func alignedX(width w: Double, in width: Double) -> Double {
        switch style.alignment {
        case .left, .justified: return 0
        case .center: return max(0, (width - w) / 2)
        case .right: return max(0, width - w)
        }
    }
}

/// Sizes that hold for every page of a text job.
struct TextGeometry {
    /// The body font, sized for `charactersPerInch` when that is set.
    let font: Font
    let metrics: FontMetrics
    /// Distance between baselines of consecutive lines, in points.
    let pitch: Double
    /// Baseline below a line's top.
    let baseline: Double
    /// Width of the line-number gutter (0 without line numbers).
    let numberGutter: Double
    let digitAdvance: Double

    init(style: TextStyle, fonts: FontSystem, lineCount: Int) {
        var font = style.font
        if let cpi = style.charactersPerInch, cpi > 0,
           let zero = fonts.loadPrimaryFont(font)?.glyphs(for: "0").first ?? nil, zero.advance > 0 {
            font = font.withSize(font.pointSize * (72 / cpi) / zero.advance)
        }
        self.font = font
        metrics = fonts.metrics(of: font)
        let natural = metrics.height
        pitch = style.linesPerInch.map { 72 / $0 } ?? natural
        // Centre the font's own line in the pitch.
        baseline = metrics.ascent + max(0, (pitch - natural) / 2)
        let zero = fonts.loadPrimaryFont(font)?.glyphs(for: "0").first ?? nil
        digitAdvance = zero?.advance ?? fonts.width(of: "0", font: font)
        let digits = max(3, String(max(1, lineCount)).count)
        numberGutter = style.lineNumbers ? Double(digits + 1) * digitAdvance : 0
    }
}
