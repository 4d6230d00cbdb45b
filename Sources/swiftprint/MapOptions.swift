import ArgumentParser

/// Options for maps: GeoJSON, GPX, map descriptions and MBTiles.
struct MapOptions: ParsableArguments {
    @Option(name: .customLong("map-tiles"), help: ArgumentHelp("Map tiles: an MBTiles file, a {z}/{x}/{y} folder, or an http(s) URL template such as https://tile.example.org/{z}/{x}/{y}.png (default: the offline world basemap).", valueName: "source"))
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

    @Option(name: .customLong("map-attribution"), help: ArgumentHelp("Attribution printed under the map (default: what the tile source says).", valueName: "text"))
    var mapAttribution: String?

    @Option(name: .customLong("map-max-zoom"), help: ArgumentHelp("A tile server's deepest zoom (default 19); deeper maps stretch its tiles.", valueName: "z"))
    var mapMaxZoom: Int?

    @Option(name: .customLong("map-user-agent"), help: ArgumentHelp("User-Agent for tile servers (swiftprint and its version are added).", valueName: "text"))
    var mapUserAgent: String?

    @Option(name: .customLong("map-tile-cache"), help: ArgumentHelp("Folder for downloaded tiles, or none (default: ~/.cache/swiftprint/tiles).", valueName: "folder"))
    var mapTileCache: String?

    @Option(name: .customLong("map-poster"), help: ArgumentHelp("Print the map over COLUMNSxROWS sheets, to trim and paste together (such as 3x2).", valueName: "CxR"))
    var mapPoster: String?

    @Option(name: .customLong("map-poster-overlap"), help: ArgumentHelp("What neighbouring poster sheets both print (default 10mm).", valueName: "length"))
    var mapPosterOverlap: String?

    @Option(name: .customLong("map-max-sheets"), help: "Refuse posters of more sheets than this (default 64).")
    var mapMaxSheets: Int?

    @Option(name: .customLong("map-grid"), help: ArgumentHelp("Lines of latitude and longitude: auto, off, or a spacing in degrees (0.25 = 15′).", valueName: "spacing"))
    var mapGrid: String?

    /// These settings by their option names, for `JobOptions` (which checks them).
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if let mapTiles { o.append(("swiftprint-map-tiles", mapTiles)) }
        if let mapScale { o.append(("swiftprint-map-scale", String(mapScale))) }
        if let mapDPI { o.append(("swiftprint-map-dpi", String(mapDPI))) }
        if let mapTileDPI { o.append(("swiftprint-map-tile-dpi", String(mapTileDPI))) }
        if let mapMissingTiles { o.append(("swiftprint-map-missing-tiles", mapMissingTiles)) }
        if let mapMaxTiles { o.append(("swiftprint-map-max-tiles", String(mapMaxTiles))) }
        if let mapAttribution { o.append(("swiftprint-map-attribution", mapAttribution)) }
        if let mapMaxZoom { o.append(("swiftprint-map-max-zoom", String(mapMaxZoom))) }
        if let mapUserAgent { o.append(("swiftprint-map-user-agent", mapUserAgent)) }
        if let mapTileCache { o.append(("swiftprint-map-tile-cache", mapTileCache)) }
        if let mapPoster { o.append(("swiftprint-map-poster", mapPoster)) }
        if let mapPosterOverlap { o.append(("swiftprint-map-poster-overlap", mapPosterOverlap)) }
        if let mapMaxSheets { o.append(("swiftprint-map-max-sheets", String(mapMaxSheets))) }
        if let mapGrid { o.append(("swiftprint-map-grid", mapGrid)) }
        return o
    }
}
