import Foundation
import RasterOutput
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

/// The raster helper's frames (RasterHelperStream) taken apart as a pipe may deliver them: in
/// any pieces, the same bytes and the same sheets in order; anything else is refused.
@Suite struct RasterHelperStreamTests {
    /// Frames as swiftprint-raster writes them: two sheets of bytes (one of them larger than a
    /// frame) and a reply.
    func frames() throws -> (Data, bytes: Data) {
        let path = try temporaryDirectory() + "/frames"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let writer = RasterHelperStream.Writer(fd: fd)
        var bytes = Data()
        for (n, size) in [(1, 3), (1, 70_000), (2, 600_000), (2, 1)].enumerated() {
            let chunk = Data((0..<size.1).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n) })
            chunk.withUnsafeBytes { writer.write($0) }
            bytes += chunk
            if n == 1 { writer.sheetEnded(1) }
        }
        writer.sheetEnded(2)
        writer.reply(Data(#"{"answer":2,"warnings":[]}"#.utf8))
        close(fd)
        return (try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    @Test(arguments: [1, 5, 4099, 65536, Int.max])
    func piecesOfAnySizeGiveTheSameStream(piece: Int) throws {
        let (stream, expected) = try frames()
        var reader = RasterHelperStream.Reader()
        var bytes = Data(), sheets: [(Int, Int)] = []
        var offset = 0
        while offset < stream.count {
            let end = offset + min(piece, stream.count - offset)
            _ = try stream[offset..<end].withUnsafeBytes { part in
                try reader.take(part, bytes: { bytes.append(contentsOf: $0) }, sheet: { sheets.append(($0, bytes.count)) })
            }
            offset = end
        }
        #expect(bytes == expected)
        #expect(sheets.map(\.0) == [1, 2] && sheets.map(\.1) == [70_003, expected.count])
        #expect(reader.reply == Data(#"{"answer":2,"warnings":[]}"#.utf8) && !reader.isInsideFrame)
    }

    @Test func anythingButFramesIsRefused() throws {
        for noise in [Data([9, 0, 0, 0, 0]), Data([2, 0, 0, 0x20, 0]), Data([3, 2, 0, 0, 0, 0x7b, 0x7d, 1, 1, 0, 0, 0, 0])] {
            var reader = RasterHelperStream.Reader()
            #expect(throws: PrintError.self) {
                try noise.withUnsafeBytes { _ = try reader.take($0, bytes: { _ in }, sheet: { _ in }) }
            }
        }
        // Cut off inside a frame: the runner sees it.
        var reader = RasterHelperStream.Reader()
        _ = try Data([1, 10, 0, 0, 0, 1, 2]).withUnsafeBytes { try reader.take($0, bytes: { _ in }, sheet: { _ in }) }
        #expect(reader.isInsideFrame && reader.reply == nil)
    }
}
