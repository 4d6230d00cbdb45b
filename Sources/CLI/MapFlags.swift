import ArgumentParser
import SwiftPrint

/// Maps: GeoJSON, GPX, map descriptions and MBTiles (`MapOptions`).
struct MapFlags: JobFlagGroup {
    static let declarations = MapOptions.all
    typealias O = MapOptions
    @Option(name: O.tiles.flag, help: O.tiles.argumentHelp) var mapTiles: String?
    @Option(name: O.scale.flag, help: O.scale.argumentHelp) var mapScale: String?
    @Option(name: O.dpi.flag, help: O.dpi.argumentHelp) var mapDPI: String?
    @Option(name: O.tileDPI.flag, help: O.tileDPI.argumentHelp) var mapTileDPI: String?
    @Option(name: O.missingTiles.flag, help: O.missingTiles.argumentHelp) var mapMissingTiles: String?
    @Option(name: O.maxTiles.flag, help: O.maxTiles.argumentHelp) var mapMaxTiles: String?
    @Option(name: O.maxPoints.flag, help: O.maxPoints.argumentHelp) var mapMaxPoints: String?
    @Option(name: O.attribution.flag, help: O.attribution.argumentHelp) var mapAttribution: String?
    @Option(name: O.maxZoom.flag, help: O.maxZoom.argumentHelp) var mapMaxZoom: String?
    @Option(name: O.userAgent.flag, help: O.userAgent.argumentHelp) var mapUserAgent: String?
    @Option(name: O.tileCache.flag, help: O.tileCache.argumentHelp) var mapTileCache: String?
    @Option(name: O.poster.flag, help: O.poster.argumentHelp) var mapPoster: String?
    @Option(name: O.posterOverlap.flag, help: O.posterOverlap.argumentHelp) var mapPosterOverlap: String?
    @Option(name: O.maxSheets.flag, help: O.maxSheets.argumentHelp) var mapMaxSheets: String?
    @Option(name: O.grid.flag, help: O.grid.argumentHelp) var mapGrid: String?
}
