// swiftprint-map: draws one map (GeoJSON, GPX, a map description, an MBTiles overview) into a
// PDF, for the map handler, which runs it in its own process: the map engine's libraries
// (SQLite, libxml2, gdk-pixbuf, libcurl) load only for map jobs, and untrusted map files are
// parsed outside the job.
//
// It answers one request (HelperRequest<MapDrawingTask>, one JSON line on standard input): each
// page of the output is one sheet's map, the task's content area with its margin around it,
// where a poster prints its marks, with the job's map settings and what it may read. The
// reply carries the warnings (missing tiles) or the failure, typed (PrintHelpers says the
// protocol).
import Foundation
import HandlerSupport
import Logging
import MapEngine
import MapProtocol
import PrintJobs
import Synchronization

/// The engine's warnings, gathered for the reply.
final class Warnings: Sendable {
    static let gathered = Warnings()
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct WarningGatherer: LogHandler {
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] } set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { Warnings.gathered.add("\(event.message)") }
}

LoggingSystem.bootstrap { _ in WarningGatherer() }
HelperMain.answerOnce(MapDrawingTask.self) { request, warnings -> NoAnswer in
    defer { warnings = Warnings.gathered.all }
    let task = request.task
    guard let input = request.input, let output = request.output, task.width > 0, task.height > 0, task.margin >= 0 else {
        throw PrintError(.invalidOption, "the request needs an input, an output and a content area")
    }
    var settings = JobSettings()
    settings.map = task.map
    settings.limits = task.limits
    settings.localFiles = task.localFiles
    let formatter = try MapEngine().makeFormatter(for: PrintInput(path: input), settings: settings)
    let renderer = PrintPageRenderer()
    renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
    let m = task.margin
    let sheet = CGSize(width: task.width + 2 * m, height: task.height + 2 * m)
    let paper = PrintPaper(media: .custom(points: sheet), margins: EdgeInsets(top: m, left: m, bottom: m, right: m))
    try PrintJob(renderer: renderer, info: PrintInfo(), paper: paper).writePDF(to: .file(output))
    return NoAnswer()
}
