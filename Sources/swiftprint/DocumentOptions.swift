import ArgumentParser
import SwiftPrint

/// Options for content with a size of its own (PDF pages and images), and for HTML.
struct DocumentOptions: ParsableArguments {
    @Option(name: .customLong("print-scaling"),
            help: ArgumentHelp("auto, auto-fit, fit, fill or none (IPP print-scaling).",
                               discussion: "PDF pages keep their own size unless this or --media is given (auto then means auto-fit); images fit the printable area by default (auto means fit)."))
    var printScaling: PrintScaling?

    @Option(help: "Where images and pages smaller than the paper sit: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right.")
    var position: ContentPosition?

    @Option(help: "Image resolution in pixels per inch, for natural size (--print-scaling none).")
    var ppi: Double?

    @Option(name: .customLong("natural-scaling"), help: "Percent of natural size (with --print-scaling none or auto-fit).")
    var naturalScaling: Double?

    @Flag(help: "Print images mirror-image (iron-on transfers).")
    var mirror = false

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

    @Flag(help: "Let an HTML page's own scripts run (off by default: pages from strangers are printed as they are).")
    var scripts = false

    @Option(name: .customLong("markup-timeout"),
            help: ArgumentHelp("Seconds an HTML or Markdown document may take to load, and to lay out (default 60).", valueName: "seconds"))
    var markupTimeout: Double?

    @Option(name: .customLong("map-tiles"), help: ArgumentHelp("Map tiles: an MBTiles file or a {z}/{x}/{y} folder (default: the offline world basemap).", valueName: "source"))
    var mapTiles: String?

    @Option(name: .customLong("map-scale"), help: ArgumentHelp("Print GeoJSON and GPX at scale 1:N, centred on them (default: fitted).", valueName: "N"))
    var mapScale: Double?

    @Option(name: .customLong("map-dpi"), help: ArgumentHelp("The resolution a map is made for (default 300).", valueName: "dpi"))
    var mapDPI: Double?

    @Option(name: .customLong("map-tile-dpi"), help: ArgumentHelp("Tile pixels per inch on paper (96: labels at their screen size; default: map-dpi).", valueName: "dpi"))
    var mapTileDPI: Double?

    @Option(name: .customLong("map-missing-tiles"), help: "placeholder (default), blank or fail.")
    var mapMissingTiles: String?

    @Option(name: .customLong("map-max-tiles"), help: "Refuse maps needing more tiles than this (default 2000).")
    var mapMaxTiles: Int?

    /// These settings by their option names, for `JobOptions` (which checks them).
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if let printScaling { o.append(("print-scaling", printScaling.rawValue)) }
        if let password { o.append(("swiftprint-password", password)) }
        if let position { o.append(("position", position.rawValue)) }
        if let ppi { o.append(("ppi", String(ppi))) }
        if let naturalScaling { o.append(("natural-scaling", String(naturalScaling))) }
        if mirror { o.append(("mirror", "true")) }
        if let maxPixels { o.append(("swiftprint-max-pixels", String(maxPixels))) }
        if let gifFrames { o.append(("swiftprint-gif-frames", gifFrames)) }
        if let converterTimeout { o.append(("swiftprint-converter-timeout", String(converterTimeout))) }
        if let photosPerSheet { o.append(("swiftprint-photos-per-sheet", String(photosPerSheet))) }
        if let gutter { o.append(("swiftprint-gutter", gutter)) }
        if scripts { o.append(("swiftprint-scripts", "true")) }
        if let markupTimeout { o.append(("swiftprint-markup-timeout", String(markupTimeout))) }
        if let mapTiles { o.append(("swiftprint-map-tiles", mapTiles)) }
        if let mapScale { o.append(("swiftprint-map-scale", String(mapScale))) }
        if let mapDPI { o.append(("swiftprint-map-dpi", String(mapDPI))) }
        if let mapTileDPI { o.append(("swiftprint-map-tile-dpi", String(mapTileDPI))) }
        if let mapMissingTiles { o.append(("swiftprint-map-missing-tiles", mapMissingTiles)) }
        if let mapMaxTiles { o.append(("swiftprint-map-max-tiles", String(mapMaxTiles))) }
        return o
    }
}

extension PrintScaling: ExpressibleByArgument {}
extension ContentPosition: ExpressibleByArgument {}
