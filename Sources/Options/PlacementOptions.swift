import Foundation
import PrintModel

/// Options for content with a size of its own: PDF pages and images, the photo grid, and the
/// formats converters turn into PDF.
public enum PlacementOptions {
    public static let printScaling = JobOption<PrintScaling>(
        "print-scaling", help: "auto, auto-fit, fit, fill or none (IPP print-scaling).",
        discussion: "PDF pages keep their own size unless this or --media is given (auto then means auto-fit); images fit the printable area by default (auto means fit).",
        expects: "auto, auto-fit, fit, fill or none", example: "fill",
        default: .unset("PDF pages at their own size, or auto-fit when a paper, scaling or position is given; images fit the printable area")
    ) { $0.placement.scaling = $1 }

    /// CUPS's `fit-to-page`.
    public static let fitToPage = JobOption<Bool>(
        "fit-to-page", sources: .printJob, help: "Fit pages to the paper (CUPS).", expects: "true or false", example: "true"
    ) { settings, on in if on { settings.placement.scaling = .fit } }

    public static let scaling = JobOption<Double>(
        "scaling", help: "Percent of the printable area (1-800, CUPS's scaling): content fits it, then is drawn this much of that size; above 100 it is cropped.",
        valueName: "percent", expects: "a percent of the printable area, 1 to 800", example: "50",
        default: .unset("none (print-scaling decides the size)"),
        valid: { $0 >= 1 && $0 <= 800 }) { $0.placement.percentOfArea = $1 }

    public static let position = JobOption<ContentPosition>(
        "position", help: "Where images and pages smaller than the paper sit: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right.",
        expects: ContentPosition.allCases.map(\.rawValue).joined(separator: ", "), example: "top-left",
        default: .unset("center")) { $0.placement.position = $1 }

    public static let ppi = JobOption<Double>(
        "ppi", help: "Image resolution in pixels per inch, for natural size (--print-scaling none).",
        expects: "more than 0, at most 10000", example: "150", default: .unset("the image file's own, else 72"),
        valid: { $0 > 0 && $0 <= 10000 }) { $0.placement.ppi = $1 }

    public static let naturalScaling = JobOption<Double>(
        "natural-scaling", help: "Percent of natural size (with --print-scaling none or auto-fit).",
        expects: "a percent, more than 0, at most 1000", example: "50", default: .unset("100"),
        valid: { $0 > 0 && $0 <= 1000 }) { $0.placement.naturalScaling = $1 }

    public static let photosPerSheet = JobOption<Int>(
        "swiftprint-photos-per-sheet", aliases: ["photos-per-sheet"],
        help: "A photo grid: this many images per sheet (2, 3, 4, 6, 8, 9, 10, 12, 15, 16, 20), each turned to suit its cell.",
        valueName: "n", expects: SheetOptions.photoGridCounts.dropFirst().map(String.init).joined(separator: ", "), example: "4",
        default: .unset("no photo grid"),
        valid: { $0 > 1 && SheetOptions.photoGridShapes[$0] != nil }) { $0.info.sheets.photosPerSheet = $1 }

    public static let gutter = JobOption<Points>(
        "swiftprint-gutter", aliases: ["gutter"],
        help: "Space between the photo grid's cells: a length in points or with mm, cm, in.",
        valueName: "length", expects: "a length like 9, 3mm or 0.1in", example: "3mm", default: .unset("9 pt")
    ) { $0.info.sheets.photoGutter = $1.value }

    public static let gifFrames = JobOption<PlacementSettings.GIFFrames>(
        "swiftprint-gif-frames", aliases: ["gif-frames"],
        help: "first or all: every frame of an animated GIF, AVIF or JPEG XL on its own page.",
        expects: "first or all", example: "all", default: .unset("first")) { $0.placement.gifFrames = $1 }

    /// IPP's own attribute for a document's password (PWG 5100.13): cupsd passes it to the
    /// filter and never shows it, to anyone, in a job's attributes (lpstat, Get-Job-Attributes).
    /// `swiftprint-password`, its old print-job name, every user could read there: a job that
    /// still sends it is refused (`PrintFilter.refuseExposedPassword`).
    public static let password = JobOption<String>(
        "document-password", aliases: ["password"], commandLine: "password",
        help: "The password of an encrypted PDF (the owner's lifts a ban on printing).", valueName: "password",
        expects: "a password", example: "secret", default: .unset("none")) { $0.placement.password = $1 }

    /// The password's print-job name before `document-password`, which cupsd shows to every user.
    public static let exposedPasswordName = "swiftprint-password"

    public static let all: [any DeclaredOption] =
        [printScaling, fitToPage, scaling, position, ppi, naturalScaling, photosPerSheet, gutter,
         gifFrames, password]
}
