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
    /// Its own fonts, for a stream made without a renderer's (`makePageStream()`).
    private lazy var ownFonts = FontSystem()
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
        try makePageStream(in: LayoutEnvironment(fonts: ownFonts, contentArea: .zero))
    }

    /// Lays the text out with the fonts of the renderer laying it out.
    public override func makePageStream(in environment: LayoutEnvironment) throws -> FormattedPageStream {
        try open()
        return try TextPageStream(source: source!, style: style, fonts: environment.fonts, coverage: coverage, logger: logger)
    }
}
