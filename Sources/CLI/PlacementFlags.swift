import ArgumentParser
import SwiftPrint

/// Content with a size of its own: PDF pages and images (`PlacementOptions`).
struct PlacementFlags: JobFlagGroup {
    static let declarations = PlacementOptions.all
    typealias O = PlacementOptions
    @Option(name: O.printScaling.flag, help: O.printScaling.argumentHelp) var printScaling: String?
    @Option(name: O.scaling.flag, help: O.scaling.argumentHelp) var scaling: String?
    @Option(name: O.position.flag, help: O.position.argumentHelp) var position: String?
    @Option(name: O.ppi.flag, help: O.ppi.argumentHelp) var ppi: String?
    @Option(name: O.naturalScaling.flag, help: O.naturalScaling.argumentHelp) var naturalScaling: String?
    @Option(name: O.photosPerSheet.flag, help: O.photosPerSheet.argumentHelp) var photosPerSheet: String?
    @Option(name: O.gutter.flag, help: O.gutter.argumentHelp) var gutter: String?
    @Option(name: O.converterTimeout.flag, help: O.converterTimeout.argumentHelp) var converterTimeout: String?
    @Option(name: O.gifFrames.flag, help: O.gifFrames.argumentHelp) var gifFrames: String?
    @Option(name: O.maxPixels.flag, help: O.maxPixels.argumentHelp) var maxPixels: String?
    @Option(name: O.password.flag, help: O.password.argumentHelp) var password: String?
}
