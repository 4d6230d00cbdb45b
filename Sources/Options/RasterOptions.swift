import Foundation
import PrintGraphics
import PrintModel

/// Raster output for printers that take no PDF, by IPP's names. The format is the command
/// line's (a CUPS queue writes what CUPS asks for); resolution, type and back-side turn are
/// IPP job attributes too, which a printer queue's job may set.
public enum RasterOptions {
    public static let outputFormat = JobOption<OutputFormat>(
        "output-format", sources: .commandLine,
        help: "pdf, pwg-raster or urf (Apple raster); the MIME types application/pdf, image/pwg-raster and image/urf too.",
        valueName: "format", expects: "pdf, pwg-raster, urf, application/pdf, image/pwg-raster or image/urf", example: "pwg-raster",
        default: .unset("pdf; swiftprint print sends the first of pdf, pwg-raster and urf that the printer takes"),
        parse: { OutputFormat(name: $0) }) { $0.info.outputFormat = $1 }

    public static let resolution = JobOption<PrinterResolution>(
        "printer-resolution", sources: .everywhere,
        help: "Raster output's dots per inch: 300, 600dpi, or 600x300dpi across by down (PWG raster only).",
        valueName: "dpi", expects: "dots per inch from 1 to 9600, as 300, 600dpi or 600x300dpi", example: "600dpi",
        default: .unset("\(PrinterResolution.standard); for a printer, its driver's choice, else the resolution it lists nearest that"),
        parse: { PrinterResolution(text: $0) }) { $0.info.printerResolution = $1 }

    public static let rasterType = JobOption<RasterType>(
        "pwg-raster-document-type", sources: .everywhere,
        help: "Raster output's colour and depth: sgray_8, srgb_8, sgray_16, srgb_16, black_8, black_16, black_1 and sgray_1 (dithered), adobe-rgb_8, adobe-rgb_16, cmyk_8 and cmyk_16 (with --cmyk-profile).",
        valueName: "type", expects: RasterType.allCases.map(\.rawValue).joined(separator: ", "), example: "sgray_8",
        default: .unset("\(RasterType.srgb8.rawValue), or \(RasterType.sgray8.rawValue) for grey output; for a printer, its driver's choice, else the closest of the types it lists")
    ) { $0.info.rasterType = $1 }

    public static let sheetBack = JobOption<SheetBack>(
        "pwg-raster-document-sheet-back", commandLine: "sheet-back", sources: .everywhere,
        help: "How raster output turns the back of two-sided sheets for the printer: normal, flipped, rotated or manual-tumble.",
        valueName: "turn", expects: SheetBack.allCases.map(\.rawValue).joined(separator: ", "), example: "rotated",
        default: .unset("the printer's own, else normal")
    ) { $0.info.sheetBack = $1 }

    public static let cmykProfile = JobOption<String>(
        "swiftprint-cmyk-profile", aliases: ["cmyk-profile"], sources: .commandLine,
        help: "The ICC profile of the printer's inks, for cmyk_8 and cmyk_16 raster output (colour converted by Little CMS).",
        valueName: "file", expects: "a CMYK ICC profile file", example: "/usr/share/color/icc/ghostscript/default_cmyk.icc",
        default: .unset("none")
    ) { $0.cmykProfile = $1 }

    public static let renderingIntent = JobOption<RenderingIntent>(
        "print-rendering-intent", commandLine: "rendering-intent", sources: .everywhere,
        help: "How colours the printer cannot make are brought into its gamut: auto, perceptual, relative, relative-bpc (black point compensation), saturation or absolute (IPP print-rendering-intent). Raster output in adobe-rgb or cmyk is converted with it; PDF output carries it (PDF's ri) for the printer that converts.",
        valueName: "intent", expects: RenderingIntent.allCases.map(\.rawValue).joined(separator: ", "), example: "perceptual",
        default: .unset("auto: relative-bpc")
    ) { $0.renderingIntent = $1 }

    public static let all: [any DeclaredOption] = [outputFormat, resolution, rasterType, sheetBack, cmykProfile, renderingIntent]
}

extension RenderingIntent: OptionValue {}

extension OutputFormat: OptionValue {
    public init?(optionText: String) { self.init(name: optionText) }
}

extension PrinterResolution: OptionValue {
    public init?(optionText: String) { self.init(text: optionText) }
}

extension RasterType: OptionValue {}
extension SheetBack: OptionValue {}
