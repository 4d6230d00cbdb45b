import ArgumentParser
import Foundation
import SwiftPrint

/// Paper and job options, named after their IPP/CUPS attributes where one exists.
struct PageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Paper: A4, letter, A5, legal, 4x6, iso_a5_148x210mm, 210x297mm, 8.5x11in …",
                               discussion: "Default: PAPERSIZE, then the locale (LC_ALL, LC_PAPER, /etc/papersize, LANG): US Letter where Letter is used, A4 elsewhere."))
    var media: String?

    @Option(help: "portrait, landscape, reverse-portrait or reverse-landscape (IPP orientation-requested 3–6; the reverse ones turn each side half a turn).")
    var orientation: String?

    @Option(name: .customLong("page-ranges"), help: "Pages to print, e.g. 1-3,7,10- (counting from 1).")
    var pageRanges: String?

    @Option(help: "Copies of the document, collated.")
    var copies: Int?

    @Option(help: ArgumentHelp("Margins around the printable area: 1 to 4 lengths (top, right, bottom, left) in points or with mm, cm, in. Default 36 pt; 0 for photo output.",
                               valueName: "lengths"))
    var margins: String?

    @Option(name: .customLong("output-type"),
            help: ArgumentHelp("general, grayscale, photo or photoGrayscale (UIKit's output type): photo picks photo paper (4x6 in or A6) without margins; the grayscale types print grey."))
    var outputType: PrintInfo.OutputType?

    @Option(name: .customLong("print-color-mode"), help: "color or monochrome (IPP print-color-mode): monochrome prints every page in grey.")
    var printColorMode: ColorMode?

    enum ColorMode: String, ExpressibleByArgument, CaseIterable { case color, monochrome }

    @Option(help: ArgumentHelp("Header: left|center|right, each with {title} {file} {page} {pages} {date} {user}.", valueName: "template"))
    var header: String?

    @Option(help: ArgumentHelp("Footer, like --header, e.g. \"{file}||page {page} of {pages}\".", valueName: "template"))
    var footer: String?

    @Option(name: .customLong("header-on"), help: ArgumentHelp("page (default) or sheet: with sheet, the header and footer are printed once per side of the sheet, {page} and {pages} counting sides (n-up, booklets).", valueName: "where"))
    var headerOn: String?

    @Option(help: "The job's title (PDF title, {title}); default: the input's file name.")
    var title: String?

    /// These settings by their IPP names, for `JobOptions` (which checks them).
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if let media { o.append(("media", media)) }
        if let orientation { o.append(("orientation-requested", orientation)) }
        if let pageRanges { o.append(("page-ranges", pageRanges)) }
        if let copies { o.append(("copies", String(copies))) }
        if let margins { o.append(("swiftprint-margins", margins)) }
        if let outputType { o.append(("swiftprint-output-type", outputType.rawValue)) }
        if let printColorMode { o.append(("print-color-mode", printColorMode.rawValue)) }
        if let header { o.append(("swiftprint-header", header)) }
        if let footer { o.append(("swiftprint-footer", footer)) }
        if let headerOn { o.append(("header-on", headerOn)) }
        if let title { o.append(("job-name", title)) }
        return o
    }
}

extension PrintInfo.Orientation: ExpressibleByArgument {}
extension PrintInfo.OutputType: ExpressibleByArgument {}

/// Options for plain text.
struct TextOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Font, e.g. \"DejaVu Sans Mono 10\" (family, style, size in points).", valueName: "font"))
    var font: String?

    @Option(help: ArgumentHelp("Text colour: a name or #rrggbb.", valueName: "color"))
    var color: String?

    @Option(help: "left, center, right or justified.")
    var alignment: String?

    @Option(name: .customLong("line-break"), help: "word, char, clip or truncate.")
    var lineBreak: String?

    @Flag(inversion: .prefixedNo, help: "Wrap long lines (--no-wrap cuts them at the margin).")
    var wrap: Bool = true

    @Option(help: "Text columns per page.")
    var columns: Int?

    @Option(help: "Characters per inch (sizes the font).")
    var cpi: Double?

    @Option(help: "Lines per inch (fixes the line pitch).")
    var lpi: Double?

    @Flag(name: .customLong("line-numbers"), help: "Number the lines.")
    var lineNumbers = false

    @Option(help: ArgumentHelp("Read the text in this encoding (any iconv name) instead of detecting it.", valueName: "name"))
    var encoding: String?

    func validate() throws {
        if let font, Font(font) == nil { throw ValidationError("font \"\(font)\" is not a font description") }
        if let color, Color(parsing: color) == nil { throw ValidationError("colour \"\(color)\" is not a name or #rrggbb") }
        if let alignment, TextAlignment(rawValue: alignment) == nil {
            throw ValidationError("alignment must be left, center, right or justified, not \"\(alignment)\"")
        }
        if let lineBreak, TextStyle.LineBreakMode(rawValue: lineBreak) == nil {
            throw ValidationError("line break must be word, char, clip or truncate, not \"\(lineBreak)\"")
        }
        if let columns, !(1...8).contains(columns) { throw ValidationError("columns must be 1 to 8, not \(columns)") }
        if let cpi, !(cpi > 0 && cpi <= 100) { throw ValidationError("cpi must be above 0 and at most 100") }
        if let lpi, !(lpi > 0 && lpi <= 100) { throw ValidationError("lpi must be above 0 and at most 100") }
    }

    /// These settings by their option names, for `JobOptions`.
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if let font { o.append(("swiftprint-font", font)) }
        if let color { o.append(("swiftprint-text-color", color)) }
        if let alignment { o.append(("swiftprint-alignment", alignment)) }
        if let lineBreak { o.append(("swiftprint-line-break", lineBreak)) }
        if !wrap { o.append(("wrap", "false")) }
        if let columns { o.append(("columns", String(columns))) }
        if let cpi { o.append(("cpi", String(cpi))) }
        if let lpi { o.append(("lpi", String(lpi))) }
        if lineNumbers { o.append(("swiftprint-line-numbers", "true")) }
        if let encoding { o.append(("swiftprint-encoding", encoding)) }
        return o
    }
}
