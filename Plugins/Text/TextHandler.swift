import Foundation
import HandlerSupport

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
