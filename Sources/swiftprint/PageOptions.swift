import ArgumentParser
import Foundation
import SwiftPrint

/// Paper and job options, named after their IPP/CUPS attributes where one exists.
struct PageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Paper: A4, letter, A5, legal, 4x6, iso_a5_148x210mm, 210x297mm, 8.5x11in …",
                               discussion: "Default: PAPERSIZE, then the locale (LC_ALL, LC_PAPER, /etc/papersize, LANG): US Letter where Letter is used, A4 elsewhere."))
    var media: String?

    @Option(help: "portrait or landscape.")
    var orientation: PrintInfo.Orientation?

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

    @Option(help: ArgumentHelp("Header: left|center|right, each with {title} {file} {page} {pages} {date}.", valueName: "template"))
    var header: String?

    @Option(help: ArgumentHelp("Footer, like --header, e.g. \"{file}||page {page} of {pages}\".", valueName: "template"))
    var footer: String?

    @Option(help: "The job's title (PDF title, {title}); default: the input's file name.")
    var title: String?

    func validate() throws {
        if let media, MediaSize.named(media) == nil {
            throw ValidationError("unknown paper size \"\(media)\" (try A4, letter, A5, legal, 4x6 or a size like 210x297mm)")
        }
        if let pageRanges, PageRanges(pageRanges) == nil {
            throw ValidationError("page ranges \"\(pageRanges)\" are not valid (use numbers from 1, like 1-3,7,10-)")
        }
        if let copies, !(1...999).contains(copies) { throw ValidationError("copies must be 1 to 999, not \(copies)") }
        if let margins, EdgeInsets(cssLengths: margins) == nil {
            throw ValidationError("margins \"\(margins)\" are not valid (1 to 4 lengths like 36, 12.7mm or 0.5in)")
        }
    }

    func printInfo(jobName: String) -> PrintInfo {
        // print-color-mode monochrome is the grey form of whatever output type is asked for.
        var type = outputType
        if printColorMode == .monochrome { type = (type == .photo || type == .photoGrayscale) ? .photoGrayscale : .grayscale }
        if printColorMode == .color, type == .grayscale { type = .general }
        if printColorMode == .color, type == .photoGrayscale { type = .photo }
        return PrintInfo(jobName: title ?? jobName, orientation: orientation, outputType: type, copies: copies,
                         pageRanges: pageRanges.flatMap(PageRanges.init), media: media.flatMap(MediaSize.named))
    }

    func paper(for info: PrintInfo) -> PrintPaper {
        let media = OptionPrecedence.resolve(job: info.media, locale: PaperDefaults.media(for: info.outputType ?? .general))
        let orientation = OptionPrecedence.resolve(job: info.orientation, locale: .portrait)
        let isPhoto = info.outputType == .photo || info.outputType == .photoGrayscale
        let edges = margins.flatMap(EdgeInsets.init(cssLengths:)) ?? EdgeInsets(all: isPhoto ? 0 : 36)
        return PrintPaper(media: media, orientation: orientation, margins: edges)
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

    /// The handler options these flags stand for.
    var handlerOptions: HandlerOptions {
        var o: HandlerOptions = [:]
        o["font"] = font
        o["color"] = color
        o["alignment"] = alignment
        o["line-break"] = lineBreak ?? (wrap ? nil : "clip")
        o["columns"] = columns.map(String.init)
        o["cpi"] = cpi.map { String($0) }
        o["lpi"] = lpi.map { String($0) }
        o["line-numbers"] = lineNumbers ? "true" : nil
        o["encoding"] = encoding
        return o
    }
}
