import Foundation
import Logging
import HandlerSupport

/// Lays out plain text, like UIKit's UISimpleTextPrintFormatter: every script pango and the
/// installed fonts can draw, right-to-left included, with per-character font fallback.
/// Text comes from a String or, streamed and never read into memory whole, from a file.
public final class SimpleTextPrintFormatter: PrintFormatter {
    public var style = TextStyle()
    /// An iconv encoding name that overrides detection (see `TextEncoding`).
    public var encodingName: String?

    public var font: Font { get { style.font } set { style.font = newValue } }
    public var color: Color { get { style.color } set { style.color = newValue } }
    public var textAlignment: TextAlignment { get { style.alignment } set { style.alignment = newValue } }
    public var lineBreakMode: LineBreakMode { get { style.lineBreakMode } set { style.lineBreakMode = newValue } }

    /// Characters no installed font could draw, in the layouts made so far.
    public var unknownGlyphCount: Int { coverage.unknownGlyphCount }
    /// The encoding the input was read with, once it has been opened.
    public var detectedEncoding: TextEncoding? { source?.encoding }

    private let input: PrintInput
    private var source: TextSource?
    private let coverage = FontCoverage()
    /// Its renderer's fonts; its own only while it has no renderer.
    private lazy var ownFonts = FontSystem()
    private var fonts: FontSystem { printPageRenderer?.fonts ?? ownFonts }
    var logger = Logger(label: "swiftprint.text")

    /// Text given as a Swift string.
    public init(text: String) {
        input = PrintInput(data: Data(text.utf8), name: "text")
        encodingName = "UTF-8"
        super.init()
    }

    /// Text read from a file, or standard input for `-`.
    public init(input: PrintInput, encodingName: String? = nil) {
        self.input = input
        self.encodingName = encodingName
        super.init()
    }

    /// Opens the input now (it is otherwise opened on first layout), so that errors surface early.
    public func open() throws {
        if source == nil { source = try TextSource(input: input, encodingName: encodingName) }
    }

    public override func makePageStream() throws -> FormattedPageStream {
        try open()
        return try TextPageStream(source: source!, style: style, fonts: fonts, coverage: coverage, logger: logger)
    }
}

/// Plain text: `public.plain-text` and the types that are text underneath.
public struct TextHandler: ContentHandler {
    public let name = "text"
    /// Plain text and the structured text people print as it is (JSON, XML). HTML, which is text
    /// too, is the markup handler's: printing its source would be a silent fallback.
    public let contentTypes = ["public.plain-text", "public.json", "public.xml"]

    public init() {}

    /// Reads `settings.text`.
    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let text = settings.text
        let formatter = SimpleTextPrintFormatter(input: input, encodingName: text.encoding)
        var style = TextStyle()
        if let v = text.font { style.font = v }
        if let v = text.color { style.color = v }
        if let v = text.alignment { style.alignment = v }
        if let v = text.effectiveLineBreak { style.lineBreakMode = v }
        if let v = text.columns { style.columns = v }
        style.charactersPerInch = text.charactersPerInch
        style.linesPerInch = text.linesPerInch
        if let v = text.tabWidth { style.tabWidth = v }
        if let v = text.lineNumbers { style.lineNumbers = v }
        formatter.style = style
        try formatter.open()
        if let encoding = formatter.detectedEncoding { formatter.logger.debug("\(input.displayName): reading as \(encoding)") }
        return formatter
    }
}
