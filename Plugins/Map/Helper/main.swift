// swiftprint-map: draws one map (GeoJSON, GPX, a map description, an MBTiles overview) into a
// PDF, for the map handler, which runs it in its own process: the map engine's libraries
// (SQLite, libxml2, gdk-pixbuf, libcurl) load only for map jobs, and untrusted map files are
// parsed outside the job.
//
//   swiftprint-map INPUT OUTPUT.pdf --area WIDTH,HEIGHT [--margin POINTS] [--settings JSON]
//
// Each page of OUTPUT is one sheet's map: the content area, WIDTH × HEIGHT points, with MARGIN
// points around it, where a poster prints its marks. JSON is the job's `JobSettings` (the map
// engine reads `map` and `localFiles`). Warnings (missing tiles) go to standard error,
// one per line. Exit codes: 0 done; 1 failed, with the error as JSON on standard output
// (`HelperFailure`); 64 usage.
import Foundation
import Logging
import MapEngine
import HandlerSupport
import PrintJobs

/// Warnings, one line each, which the handler that runs this passes on as its own.
struct WarningLines: LogHandler {
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] } set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { FileHandle.standardError.write(Data("\(event.message)\n".utf8)) }
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: swiftprint-map INPUT OUTPUT.pdf --area WIDTH,HEIGHT [--margin POINTS] [--settings JSON]\n".utf8))
    exit(64)
}

LoggingSystem.bootstrap { _ in WarningLines() }
var arguments = Array(CommandLine.arguments.dropFirst())
var positional: [String] = []
var area: CGSize?
var margin = 0.0
var settings = JobSettings()
while !arguments.isEmpty {
    let next = arguments.removeFirst()
    guard next.hasPrefix("--") else { positional.append(next); continue }
    guard let value = arguments.first else { usage() }
    arguments.removeFirst()
    switch next {
    case "--area":
        let sides = value.split(separator: ",").compactMap { Double($0) }
        guard sides.count == 2, sides.allSatisfy({ $0 > 0 }) else { usage() }
        area = CGSize(width: sides[0], height: sides[1])
    case "--margin":
        guard let m = Double(value), m >= 0 else { usage() }
        margin = m
    case "--settings":
        guard let decoded = try? JSONDecoder().decode(JobSettings.self, from: Data(value.utf8)) else { usage() }
        settings = decoded
    default: usage()
    }
}
guard positional.count == 2, let area else { usage() }

do {
    let formatter = try MapEngine().makeFormatter(for: PrintInput(path: positional[0]), settings: settings)
    let renderer = PrintPageRenderer()
    renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
    let sheet = CGSize(width: area.width + 2 * margin, height: area.height + 2 * margin)
    let paper = PrintPaper(media: .custom(points: sheet), margins: EdgeInsets(top: margin, left: margin, bottom: margin, right: margin))
    try PrintJob(renderer: renderer, info: PrintInfo(), paper: paper).writePDF(to: .file(positional[1]))
} catch let error as PrintError {
    print(HelperFailure(error).line)
    exit(1)
} catch {
    print(HelperFailure(PrintError(.renderingFailed, path: positional[0], "the map could not be drawn: \(error)")).line)
    exit(1)
}
