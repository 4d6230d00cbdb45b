import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

enum FileHandleStderr {
    static func write(_ text: String) {
        var t = text
        t.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// swift-log handler writing `swiftprint: warning: message` lines to standard error.
struct StderrLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] } set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        FileHandleStderr.write("swiftprint: \(event.level == .info ? "" : "\(event.level): ")\(event.message)\n")
    }
}

/// "page 120 of ~3300" on standard error, only when it is a terminal and the job has run for a
/// moment; redrawn in place at most ten times a second.
final class ProgressLine {
    private let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var shown = false

    init(quiet: Bool) { enabled = !quiet && isatty(STDERR_FILENO) == 1 }

    func update(page: Int, of total: Int?, estimate: Bool) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(start) > 0.5, now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        shown = true
        let of = total.map { " of \(estimate ? "~" : "")\($0)" } ?? ""
        FileHandleStderr.write("\r\u{1B}[Kpage \(page)\(of)")
    }

    func finish() {
        if shown { FileHandleStderr.write("\r\u{1B}[K") }
    }
}
