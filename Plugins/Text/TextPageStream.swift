import Foundation
import Logging
import HandlerSupport

/// Lays plain text out page by page: the lines of one page at a time, from a `LineReader`.
/// Plain-ASCII paragraphs are broken with `FastGlyphs`; all others are shaped by pango, on the
/// character grid when the text has one (`TextGeometry`), flowing otherwise.
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
        fast = geometry.fast
        reader = try source.makeLineReader(tabWidth: style.tabWidth, countsCells: geometry.cellWidth != nil)
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
        if reader.lineIsASCII, geometry.asciiIsFast, let fast, style.alignment != .justified || geometry.cellWidth != nil {
            layOutASCII(width: width, number: number, fast: fast)
        } else if let cell = geometry.cellWidth {
            layOutOnGrid(columns: max(1, Int(width / cell + 1e-6)), cell: cell, number: number)
        } else {
            layOutFlowing(width: width, number: number)
        }
    }

    /// A paragraph of printable ASCII, measured with the font's own advances.
    private func layOutASCII(width: Double, number: Int?, fast: FastGlyphs) {
        let pitch = geometry.pitch
        let justifies = style.alignment == .justified && style.wraps
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
                } else if justifies, i < breaks.count - 1, let cell = geometry.cellWidth {
                    // On a grid, a justified line gets whole cells of space between its words.
                    let columns = Int(width / cell + 1e-6)
                    Self.appendJustified(bytes[b.range], columns: columns, cells: b.range.count, to: &pendingStore)
                    w = Double(columns) * cell
                } else {
                    pendingStore.append(contentsOf: bytes[b.range])
                }
                let range = start..<pendingStore.count
                pending.append(TextPage.Line(content: truncated ? .truncatedASCII(range) : .ascii(range),
                                             x: alignedX(width: w, in: width), baseline: geometry.baseline,
                                             advance: pitch, number: i == 0 ? number : nil))
            }
        }
    }

    /// A paragraph set on the character grid: broken into lines of `columns` cells, each line
    /// shaped by pango and put on the grid by `GridTextLine`.
    private func layOutOnGrid(columns: Int, cell: Double, number: Int?) {
        reader.line.withUnsafeBufferPointer { bytes in
            let ranges: [Range<Int>]
            switch style.lineBreakMode {
            case .word: ranges = GridLineBreaker.lines(of: bytes, columns: columns, mode: .word)
            case .char: ranges = GridLineBreaker.lines(of: bytes, columns: columns, mode: .char)
            case .clip, .truncate: ranges = [0..<bytes.count]
            }
            for (i, range) in ranges.enumerated() {
                var text = Array(bytes[range])
                if style.lineBreakMode == .truncate, GridCells.of(utf8: UnsafeBufferPointer(rebasing: bytes[range])) > columns {
                    text = Array(bytes[0..<GridLineBreaker.prefix(of: bytes, fitting: columns - 1)]) + [0xE2, 0x80, 0xA6]
                } else if style.alignment == .justified, style.wraps, i < ranges.count - 1 {
                    let slice = bytes[range]
                    text.removeAll(keepingCapacity: true)
                    Self.appendJustified(slice, columns: columns, cells: GridCells.of(utf8: UnsafeBufferPointer(rebasing: slice)), to: &text)
                }
                let line = text.withUnsafeBufferPointer {
                    GridTextLine(fonts: fonts, font: geometry.font, text: $0, cellWidth: cell)
                }
                if line.layout.unknownGlyphCount > 0 { coverage.record(line.layout.unknownCharacters()) }
                line.layout.makeLargeFontCuts()
                var trailing = 0
                while trailing < text.count, text[text.count - 1 - trailing] == 0x20 { trailing += 1 }
                let x = gridX(cells: line.cells - trailing, trailingCells: trailing, rightToLeft: line.isRightToLeft,
                              columns: columns) * cell
                pending.append(TextPage.Line(content: .grid(line), x: x, baseline: geometry.baseline,
                                             advance: geometry.pitch, number: i == 0 ? number : nil))
            }
        }
    }

    /// Where a line of `cells` visible cells starts on a line of `columns` cells, in cells: as
    /// `unwrappedX` aligns pango's lines (left and right swap in a right-to-left line; a line
    /// too long shows its start), on whole cells. A right-to-left line's trailing spaces sit at
    /// its left end.
    private func gridX(cells: Int, trailingCells: Int, rightToLeft: Bool, columns: Int) -> Double {
        var x: Int
        if cells > columns {
            x = rightToLeft ? columns - cells : 0
        } else {
            var alignment = style.alignment == .justified ? .left : style.alignment
            if rightToLeft { alignment = alignment == .left ? .right : alignment == .right ? .left : alignment }
            switch alignment {
            case .left, .justified: x = 0
            case .center: x = (columns - cells) / 2
            case .right: x = columns - cells
            }
        }
        return Double(rightToLeft ? x - trailingCells : x)
    }

    /// Appends `line` (UTF-8, `cells` cells with its trailing spaces) with the cells it lacks of
    /// `columns` added as spaces between its words, spread evenly from the left; a line with
    /// no space between words is appended as it is.
    static func appendJustified<Bytes: RandomAccessCollection>(_ line: Bytes, columns: Int, cells: Int, to out: inout [UInt8]) where Bytes.Element == UInt8, Bytes.Index == Int {
        var end = line.endIndex
        while end > line.startIndex, line[end - 1] == 0x20 { end -= 1 }
        var start = line.startIndex
        while start < end, line[start] == 0x20 { start += 1 }
        let trailing = line.endIndex - end
        var gaps = 0
        var i = start
        while i < end {
            if line[i] == 0x20 { gaps += 1; while i < end, line[i] == 0x20 { i += 1 } } else { i += 1 }
        }
        let extra = columns - (cells - trailing)
        guard gaps > 0, extra > 0 else { out.append(contentsOf: line[line.startIndex..<end]); return }
        out.append(contentsOf: line[line.startIndex..<start])
        var gap = 0
        i = start
        while i < end {
            out.append(line[i])
            if line[i] == 0x20, i + 1 < end, line[i + 1] != 0x20 {
                let add = extra / gaps + (gap < extra % gaps ? 1 : 0)
                out.append(contentsOf: repeatElement(0x20, count: add))
                gap += 1
            }
            i += 1
        }
    }

    /// A paragraph in a proportional font, shaped and broken by pango: each line as tall as its
    /// fonts need, unless lines per inch fix the pitch.
    private func layOutFlowing(width: Double, number: Int?) {
        let pitch = geometry.pitch
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
            let ascent = geometry.fixedPitch ? geometry.baseline : max(geometry.baseline, m.ascent)
            let advance = geometry.fixedPitch ? pitch : max(pitch, ascent + m.descent)
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
        case .center, .right:
            guard let cell = geometry.cellWidth else { return max(0, style.alignment == .center ? (width - w) / 2 : width - w) }
            // On a grid, on whole cells.
            let room = max(0, Int(width / cell + 1e-6) - Int((w / cell).rounded()))
            return Double(style.alignment == .center ? room / 2 : room) * cell
        }
    }
}

/// Sizes that hold for every page of a text job.
///
/// Text is set on a character grid when its font is monospace (every ASCII glyph advances the
/// same) or characters per inch are given: every character then takes the cells a terminal
/// gives it (`GridCells`), whatever font draws it. Lines have a fixed pitch on a grid and
/// whenever lines per inch are given; only a proportional font with neither flows, each line as
/// tall as its tallest font.
struct TextGeometry {
    /// The body font, sized for `charactersPerInch` when that is set.
    let font: Font
    let metrics: FontMetrics
    /// Printable ASCII in the body font, drawn without pango; nil when the font lacks some.
    let fast: FastGlyphs?
    /// The width of a cell, when the text is set on a character grid.
    let cellWidth: Double?
    /// Whether every line takes exactly `pitch`.
    let fixedPitch: Bool
    /// Distance between baselines of consecutive lines, in points.
    let pitch: Double
    /// Baseline below a line's top.
    let baseline: Double
    /// Width of the line-number gutter (0 without line numbers).
    let numberGutter: Double
    let digitAdvance: Double

    init(style: TextStyle, fonts: FontSystem, lineCount: Int) {
        var font = style.font
        let cpi = style.charactersPerInch.flatMap { $0 > 0 ? $0 : nil }
        if let cpi, let zero = fonts.loadPrimaryFont(font)?.glyphs(for: "0").first ?? nil, zero.advance > 0 {
            font = font.withSize(font.pointSize * (72 / cpi) / zero.advance)
        }
        self.font = font
        metrics = fonts.metrics(of: font)
        let natural = FastGlyphs(fonts: fonts, font: font)
        if let cpi {
            cellWidth = 72 / cpi
            fast = natural?.isUniform == true ? FastGlyphs(fonts: fonts, font: font, cellWidth: 72 / cpi) : natural
        } else {
            cellWidth = natural?.isUniform == true ? natural?.advance(of: 0x30) : nil
            fast = natural
        }
        fixedPitch = cellWidth != nil || style.linesPerInch != nil
        pitch = style.linesPerInch.map { 72 / $0 } ?? metrics.height
        // Centre the font's own line in the pitch.
        baseline = metrics.ascent + max(0, (pitch - metrics.height) / 2)
        let zero = fonts.loadPrimaryFont(font)?.glyphs(for: "0").first ?? nil
        digitAdvance = cellWidth ?? zero?.advance ?? fonts.width(of: "0", font: font)
        let digits = max(3, String(max(1, lineCount)).count)
        numberGutter = style.lineNumbers ? Double(digits + 1) * digitAdvance : 0
    }

    /// Whether ASCII lines can be drawn with `fast`: off a grid, or on one whose cells are the
    /// font's own advance.
    var asciiIsFast: Bool { fast != nil && (cellWidth == nil || fast!.isUniform) }
}
