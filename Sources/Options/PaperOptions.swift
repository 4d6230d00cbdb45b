import Foundation
import PrintModel

/// Paper and job options, named after their IPP/CUPS attributes where one exists.
public enum PaperOptions {
    public static let media = JobOption<MediaSize>(
        "media", aliases: ["PageSize", "PageRegion", "media-size-name"],
        help: "Paper: A4, letter, A5, legal, 4x6, iso_a5_148x210mm, 210x297mm, 8.5x11in …",
        expects: "A4, letter, A5, legal, 4x6 or a size like 210x297mm", example: "A5",
        default: .unset("the document's own size, else the queue's paper, else PAPERSIZE, then the locale (LC_ALL, LC_PAPER, /etc/papersize, LANG): Letter where Letter is used, A4 elsewhere (photo output: 4x6 in or A6 by the locale, never the queue's)")
    ) { $0.info.media = $1 }

    public static let orientation = JobOption<OrientationRequested>(
        "orientation-requested", aliases: ["orientation"], commandLine: "orientation",
        help: "portrait, landscape, reverse-portrait or reverse-landscape (IPP orientation-requested 3–6; the reverse ones turn each side half a turn).",
        expects: "portrait, landscape, reverse-portrait or reverse-landscape (3 to 6)", example: "landscape",
        default: .unset("the document's own (HTML's @page; a wide image or page turns its sheet), else portrait")
    ) { settings, value in
        settings.info.orientation = value.orientation
        if value.isReversed { settings.info.sheets.halfTurn = true }
    }

    /// CUPS's `landscape` (`lp -o landscape`).
    public static let landscape = JobOption<Bool>(
        "landscape", sources: .printJob, help: "Landscape (CUPS).", expects: "true or false", example: "true"
    ) { settings, on in if on { settings.info.orientation = .landscape } }

    public static let pageRanges = JobOption<PageRanges>(
        "page-ranges", help: "Pages to print, e.g. 1-3,7,10- (counting from 1).",
        expects: "numbers from 1, like 1-3,7,10-", example: "2-3", default: .unset("all pages")) { $0.info.pageRanges = $1 }

    public static let copies = JobOption<Int>(
        "copies", help: "Copies of the document, collated.", expects: "1 to 999", example: "2", default: .unset("1"),
        valid: { (1...999).contains($0) }) { $0.info.copies = $1 }

    public static let margins = JobOption<EdgeInsets>(
        "swiftprint-margins", aliases: ["margins"],
        help: "Margins around the printable area: 1 to 4 lengths (top, right, bottom, left) in points or with mm, cm, in.",
        valueName: "lengths", expects: "1 to 4 lengths like 36, 12.7mm or 0.5in", example: "10mm", default: marginsDefault) { $0.margins = $1 }

    /// What every margin option says when the job sets no margins.
    static let marginsDefault = OptionDefault.unset(
        "the document's own (HTML's @page), else \(JobSettings.defaultMargin.writtenAsOption) pt, or 0 for photo output")

    /// cups-filters' text margins, in points each.
    public static let edgeMargins: [JobOption<Double>] = [
        ("page-top", \EdgeInsets.top), ("page-right", \.right), ("page-bottom", \.bottom), ("page-left", \.left),
    ].map { name, edge in
        JobOption<Double>(name, sources: .printJob, help: "The \(name.dropFirst(5)) margin in points (cups-filters).",
                          expects: "points, 0 to 999", example: "20", default: marginsDefault, valid: { $0 >= 0 && $0 < 1000 }) { settings, points in
            var edges = settings.margins ?? EdgeInsets(all: JobSettings.defaultMargin)
            edges[keyPath: edge] = points
            settings.margins = edges
        }
    }

    public static let outputType = JobOption<PrintInfo.OutputType>(
        "swiftprint-output-type", aliases: ["output-type"],
        help: "general, grayscale, photo or photoGrayscale (UIKit's output type): photo picks photo paper (4x6 in or A6) without margins; the grayscale types print grey.",
        ppd: PPDPresentation("Output type", default: "general", [
            ("general", "General", "general"), ("grayscale", "Grayscale", "grayscale"),
            ("photo", "Photo (borderless photo paper)", "photo"), ("photoGrayscale", "Grayscale photo", "photoGrayscale"),
        ]),
        expects: "general, grayscale, photo or photoGrayscale", example: "photo", default: .unset("general")) { $0.info.outputType = $1 }

    public static let colorMode = JobOption<JobSettings.ColorMode>(
        "print-color-mode", aliases: ["ColorModel"], sources: [.commandLine, .printJob, .queueDefaults],
        help: "color or monochrome (IPP print-color-mode): monochrome prints every page in grey.",
        expects: "color or monochrome", example: "monochrome",
        default: .unset("the queue's ColorModel, else as the output type says: grey for the grayscale types, colour otherwise")
    ) { $0.colorMode = $1 }

    public static let header = template(
        "header", label: "Header", help: "Header: left|center|right, each with {title} {file} {page} {pages} {date} {user}.",
        choices: [("Title", "Title", "{title}"), ("TitleDate", "Title and date", "{title}||{date}"),
                  ("TitlePage", "Title and page number", "{title}||{page}/{pages}")],
        example: "{title}") { $0.header = $1 }

    public static let footer = template(
        "footer", label: "Footer", help: "Footer, like --header, e.g. \"{file}||page {page} of {pages}\".",
        choices: [("Page", "Page number", "|{page}|"), ("PageOfPages", "Page x of y", "||page {page} of {pages}"),
                  ("FileDatePage", "File, date and page", "{file}|{date}|{page}/{pages}")],
        example: "|{page}|") { $0.footer = $1 }

    /// A header or footer template: the PPD offers None and `choices`; empty text means none.
    private static func template(_ name: String, label: String, help: String,
                                 choices: [(keyword: String, label: String, value: String)], example: String,
                                 set: @escaping @Sendable (inout JobSettings, String?) -> Void) -> JobOption<String> {
        JobOption<String>("swiftprint-\(name)", aliases: [name], help: help, valueName: "template",
                          ppd: PPDPresentation(label, default: "None", [("None", "None", "")] + choices),
                          expects: "a template", example: example, default: .value("None"), parse: unescapedFields) { set(&$0, $1.isEmpty ? nil : $1) }
    }

    /// A template with its `%{field}` written `{field}`. libcups reads an option's value that
    /// starts with `{` as an IPP collection (`lp -o "swiftprint-footer='{file}||…'"` arrives in
    /// pieces), so a template may write any field `%{field}` instead, the same in every door.
    static func unescapedFields(_ text: String) -> String? {
        text.replacing(/%\{([a-z]+)\}/) { "{\($0.output.1)}" }
    }

    public static let headerOn = JobOption<HeaderPlacement>(
        "header-on",
        help: "page or sheet: with sheet, the header and footer are printed once per side of the sheet, {page} and {pages} counting sides (n-up, booklets).",
        valueName: "where", expects: "page or sheet", example: "sheet") { $0.headerOnSheet = $1 == .sheet }

    /// `header-on` as the PPD offers it ("swiftprint-header-…" cannot be a PPD option's name:
    /// one may not begin with another's whole name).
    public static let sheetHeaders = JobOption<Bool>(
        "swiftprint-sheet-headers", sources: .printJob, help: "Header and footer once per side of the sheet.",
        ppd: PPDPresentation("Header and footer", default: "False", [
            ("False", "On each page", "false"), ("True", "Once per side of the sheet (n-up)", "true"),
        ]),
        expects: "true or false", example: "true") { $0.headerOnSheet = $1 }

    public static let title = JobOption<String>(
        "job-name", aliases: ["title"], commandLine: "title",
        help: "The job's title (PDF title, {title}).",
        expects: "a title", example: "Minutes", default: .unset("the first document's own title, else its file name")) { $0.info.jobName = $1 }

    /// A print job's `document-format` is cupsd's to read (the filter gets it as CONTENT_TYPE),
    /// so here it is the command line's only.
    public static let documentFormat = JobOption<String>(
        "document-format", sources: .commandLine,
        help: "The documents' type as a MIME type (text/markdown, text/plain …), over what swiftprint detects; for standard input above all.",
        valueName: "mime-type", expects: "a MIME type such as text/markdown", example: "text/markdown",
        default: .unset("detected from the content and the file's name"),
        valid: { $0.split(separator: "/").count == 2 && !$0.contains(" ") }) { $0.documentFormat = $1.lowercased() }

    public static let all: [any DeclaredOption] =
        [media, orientation, landscape, pageRanges, copies, margins] + edgeMargins
        + [outputType, colorMode, header, footer, headerOn, sheetHeaders, title, documentFormat]
}

/// IPP `orientation-requested`: 3 portrait, 4 landscape, 5 reverse-landscape, 6 reverse-portrait.
public enum OrientationRequested: String, Sendable, CaseIterable, OptionValue {
    case portrait, landscape
    case reverseLandscape = "reverse-landscape", reversePortrait = "reverse-portrait"

    public init?(optionText: String) {
        switch optionText.lowercased() {
        case "3", "portrait": self = .portrait
        case "4", "landscape": self = .landscape
        case "5", "reverse-landscape": self = .reverseLandscape
        case "6", "reverse-portrait": self = .reversePortrait
        default: return nil
        }
    }

    public var orientation: PrintInfo.Orientation {
        self == .landscape || self == .reverseLandscape ? .landscape : .portrait
    }

    /// The reverse orientations turn each side half a turn.
    public var isReversed: Bool { self == .reverseLandscape || self == .reversePortrait }
}

/// Where the header and footer go: on each page, or once on each side of the sheet.
public enum HeaderPlacement: String, Sendable, CaseIterable, OptionValue { case page, sheet }
