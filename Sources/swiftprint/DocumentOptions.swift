import ArgumentParser
import Foundation
import SwiftPrint

/// Options for content with a size of its own: PDF pages and images.
struct DocumentOptions: ParsableArguments {
    @Option(name: .customLong("print-scaling"),
            help: ArgumentHelp("auto, auto-fit, fit, fill or none (IPP print-scaling).",
                               discussion: "PDF pages keep their own size unless this or --media is given (auto then means auto-fit); images fit the printable area by default (auto means fit)."))
    var printScaling: PrintScaling?

    @Option(help: ArgumentHelp("Percent of the printable area (1-800, CUPS's scaling): content fits it, then is drawn this much of that size; above 100 it is cropped.",
                               valueName: "percent"))
    var scaling: Double?

    @Option(help: "Where images and pages smaller than the paper sit: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right.")
    var position: ContentPosition?

    @Option(help: "Image resolution in pixels per inch, for natural size (--print-scaling none).")
    var ppi: Double?

    @Option(name: .customLong("natural-scaling"), help: "Percent of natural size (with --print-scaling none or auto-fit).")
    var naturalScaling: Double?

    @Option(name: .customLong("photos-per-sheet"),
            help: ArgumentHelp("A photo grid: this many images per sheet (2, 3, 4, 6, 8, 9, 10, 12, 15, 16, 20), each turned to suit its cell.", valueName: "n"))
    var photosPerSheet: Int?

    @Option(help: ArgumentHelp("Space between the photo grid's cells: a length in points or with mm, cm, in (default 9 pt).", valueName: "length"))
    var gutter: String?

    @Option(name: .customLong("converter-timeout"), help: ArgumentHelp("Seconds a converter named in types.tsv may run (default 120).", valueName: "seconds"))
    var converterTimeout: Double?

    @Option(name: .customLong("gif-frames"), help: "first (default) or all: every frame of an animated GIF on its own page.")
    var gifFrames: String?

    @Option(name: .customLong("max-pixels"), help: "Refuse images declaring more pixels than this (default 200000000).")
    var maxPixels: Int?

    @Option(help: ArgumentHelp("The password of an encrypted PDF (the owner's lifts a ban on printing).", valueName: "password"))
    var password: String?

    /// These settings by their option names, for `JobOptions` (which checks them).
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if let printScaling { o.append(("print-scaling", printScaling.rawValue)) }
        if let password { o.append(("swiftprint-password", password)) }
        if let position { o.append(("position", position.rawValue)) }
        if let scaling { o.append(("scaling", String(format: "%g", scaling))) }
        if let ppi { o.append(("ppi", String(ppi))) }
        if let naturalScaling { o.append(("natural-scaling", String(format: "%g", naturalScaling))) }
        if let maxPixels { o.append(("swiftprint-max-pixels", String(maxPixels))) }
        if let gifFrames { o.append(("swiftprint-gif-frames", gifFrames)) }
        if let converterTimeout { o.append(("swiftprint-converter-timeout", String(converterTimeout))) }
        if let photosPerSheet { o.append(("swiftprint-photos-per-sheet", String(photosPerSheet))) }
        if let gutter { o.append(("swiftprint-gutter", gutter)) }
        return o
    }
}

extension PrintScaling: ExpressibleByArgument {}
extension ContentPosition: ExpressibleByArgument {}
