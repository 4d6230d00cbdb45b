import Foundation
import PrintGraphics
import PrintModel

/// Options for plain text.
public enum TextOptions {
    public static let font = JobOption<Font>(
        "swiftprint-font", aliases: ["font"], help: "Font, e.g. \"DejaVu Sans Mono 10\" (family, style, size in points).",
        valueName: "font", expects: "a font description like \"DejaVu Sans Mono 10\"", example: "DejaVu Sans Mono 8",
        default: .unset("\(Font.monospace)")
    ) { $0.text.font = $1 }

    public static let color = JobOption<Color>(
        "swiftprint-text-color", aliases: ["text-color"], commandLine: "color", help: "Text colour: #rrggbb, or a CSS colour name (darkblue, rebeccapurple).",
        valueName: "color", expects: "#rrggbb, #rgb or one of CSS's 148 colour names, listed at https://www.w3.org/TR/css-color-4/#named-colors", example: "#204080",
        default: .unset("black")) { $0.text.color = $1 }

    public static let alignment = JobOption<TextAlignment>(
        "swiftprint-alignment", aliases: ["alignment"], help: "left, center, right or justified.",
        expects: "left, center, right or justified", example: "justified", default: .unset("left")) { $0.text.alignment = $1 }

    public static let lineBreak = JobOption<LineBreakMode>(
        "swiftprint-line-break", aliases: ["line-break"], help: "word, char, clip or truncate.",
        expects: "word, char, clip or truncate", example: "char", default: .unset("word, or clip when wrapping is off")
    ) { $0.text.lineBreak = $1 }

    public static let wrap = JobOption<Bool>(
        "swiftprint-wrap", aliases: ["wrap"], form: .invertedFlag, help: "Wrap long lines (--no-wrap cuts them at the margin).",
        ppd: PPDPresentation("Long lines (text)", default: "True", [("True", "Wrap", "true"), ("False", "Cut at the margin", "false")]),
        expects: "true or false", example: "false", default: .unset("on (long lines wrap)")) { $0.text.wrap = $1 }

    public static let columns = JobOption<Int>(
        "swiftprint-columns", aliases: ["columns"], help: "Text columns per page.",
        ppd: PPDPresentation("Columns (text)", default: "1", (1...4).map { ("\($0)", "\($0)", "\($0)") }),
        expects: "1 to 8", example: "2", default: .unset("1"), valid: { (1...8).contains($0) }) { $0.text.columns = $1 }

    public static let cpi = JobOption<Double>(
        "cpi", help: "Characters per inch (sizes the font).", expects: "above 0 and at most 100", example: "12",
        default: .unset("the font's own size decides"), valid: { $0 > 0 && $0 <= 100 }) { $0.text.charactersPerInch = $1 }

    public static let lpi = JobOption<Double>(
        "lpi", help: "Lines per inch (fixes the line pitch).", expects: "above 0 and at most 100", example: "8",
        default: .unset("the font's own line height"), valid: { $0 > 0 && $0 <= 100 }) { $0.text.linesPerInch = $1 }

    public static let tabWidth = JobOption<Int>(
        "swiftprint-tab-width", aliases: ["tab-width"], help: "Columns between tab stops.", valueName: "n",
        expects: "1 to 32", example: "4", default: .unset("8"), valid: { (1...32).contains($0) }) { $0.text.tabWidth = $1 }

    public static let lineNumbers = JobOption<Bool>(
        "swiftprint-line-numbers", aliases: ["line-numbers"], form: .flag, help: "Number the lines.",
        ppd: PPDPresentation("Line numbers (text)", default: "False", [("False", "Off", "false"), ("True", "On", "true")]),
        expects: "true or false", example: "true", default: .unset("off")) { $0.text.lineNumbers = $1 }

    public static let encoding = JobOption<String>(
        "swiftprint-encoding", aliases: ["encoding"],
        help: "Read the text in this encoding (any iconv name) instead of detecting it.", valueName: "name",
        expects: "an iconv encoding name", example: "ISO-8859-2",
        default: .unset("the charset a print job names, else detected: a byte-order mark, valid UTF-8, uchardet's guess, else windows-1252")
    ) { $0.text.encoding = $1 }

    public static let all: [any DeclaredOption] =
        [font, color, alignment, lineBreak, wrap, columns, cpi, lpi, tabWidth, lineNumbers, encoding]
}

/// UIKit's NSLineBreakMode, the cases a printer needs.
public enum LineBreakMode: String, Sendable, Codable, CaseIterable {
    /// Wrap between words; a word longer than the line breaks between characters.
    case word
    /// Wrap between any two characters.
    case char
    /// No wrapping: what does not fit is cut off at the margin.
    case clip
    /// No wrapping: a line that does not fit ends with "…".
    case truncate
}
