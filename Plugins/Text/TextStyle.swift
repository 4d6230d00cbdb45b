import HandlerSupport

/// How plain text is set, as the CLI's text options and SimpleTextPrintFormatter's
/// properties say it.
public struct TextStyle: Sendable {
    public var font: Font = .monospace
    public var color: Color = .black
    public var alignment: TextAlignment = .left
    public var lineBreakMode: LineBreakMode = .word
    /// Columns between tab stops.
    public var tabWidth = 8
    /// Text columns on each page (newspaper style).
    public var columns = 1
    /// Space between text columns, in points.
    public var columnGap = 18.0
    /// Print each line's number in a gutter.
    public var lineNumbers = false
    /// Characters per inch: sets the font size so that the monospace advance is 72/cpi points.
    public var charactersPerInch: Double?
    /// Lines per inch: fixes the line pitch at 72/lpi points.
    public var linesPerInch: Double?

    public init() {}

    var wraps: Bool { lineBreakMode == .word || lineBreakMode == .char }
}
