import Foundation
import SwiftPrint
import TestSupport
import Testing

/// An app asking for raster a sheet at a time gets the same stream `convert` writes, cut at the
/// sheets: each part after the first starts with a page header.
@Suite struct RasterSheetsTests {
    @Test(arguments: [OutputFormat.pwgRaster, .appleRaster])
    func sheetsTogetherAreTheFile(_ format: OutputFormat) throws {
        let log = directory() + "/../../Examples/server.log"
        var settings = JobSettings()
        settings.info.outputFormat = format
        settings.info.printerResolution = PrinterResolution(x: 50, y: 50)
        settings.info.pageRanges = PageRanges("1-3")
        let conversion = DocumentConversion(settings: settings, dispatcher: .standard)
        var parts: [(Int, Data)] = []
        let report = try conversion.runRaster([PrintInput(path: log)]) { parts.append(($0, $1)) }
        #expect(parts.map(\.0) == [1, 2, 3] && report.sheetsWritten == 3)

        let file = try temporaryDirectory() + "/whole"
        _ = try conversion.run([PrintInput(path: log)], to: .file(file))
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(parts.reduce(Data()) { $0 + $1.1 } == whole)
        #expect(report.bytesWritten == whole.count)
        if format == .pwgRaster {
            // PWG raster's page header begins with its MediaClass, "PwgRaster".
            #expect(parts.dropFirst().allSatisfy { $0.1.starts(with: Array("PwgRaster\0".utf8)) })
        }

        var pdf = settings
        pdf.info.outputFormat = .pdf
        #expect(throws: PrintError.self) { try DocumentConversion(settings: pdf, dispatcher: .standard).runRaster([PrintInput(path: log)]) { _, _ in } }
    }
}
