import Foundation
import Logging
import SwiftPrint
import CUPSCommon
import CUPSLibrary

/// The CUPS filter: `swiftprint job-id user title copies options [file]`, installed as
/// `$(serverbin)/filter/swiftprint`. It reads the file (or standard input), prints it with the
/// same dispatcher, handlers and paginator as `swiftprint convert`, writes PDF to standard
/// output, and talks to cupsd in `ERROR:`/`INFO:`/`DEBUG:`/`ATTR:` lines on standard error.
///
/// Settings, lowest first: the locale, the queue's PPD defaults (`*DefaultPageSize`, the
/// `swiftprint-*` options), the job's options (argv[5]); copies come from argv[4]. The document's
/// type is CUPS's CONTENT_TYPE when swiftprint prints it, else swiftprint detects it.
public enum PrintFilter {
    /// The filter's exit status: 0, or 1 after an `ERROR:` line (the CUPS contract).
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        guard arguments.count == 6 || arguments.count == 7 else {
            report("ERROR", "usage: swiftprint job-id user title copies options [file]")
            return 1
        }
        TemporaryFiles.removeOnTerminationSignals()
        // Every user's jobs run as lp: a markup renderer shared between jobs would serve them
        // all, so each job keeps its own whatever the environment says.
        unsetenv("SWIFTPRINT_MARKUP_KEEP")
        LoggingSystem.bootstrap { _ in CUPSLogHandler() }
        let title = arguments[3]
        var input = PrintInput(path: arguments.count == 7 ? arguments[6] : "-")
        input.displayName = title.isEmpty ? (arguments.count == 7 ? input.displayName : "stdin") : title
        input.declaredMIMEType = environment["CONTENT_TYPE"]
        do {
            let settings = try settings(arguments: arguments, environment: environment)
            var conversion = DocumentConversion(settings: settings, dispatcher: Dispatcher.standard)
            conversion.progress = { progress in
                if progress.page == 1 || progress.page % 50 == 0 { report("INFO", "\(input.displayName): page \(progress.page)") }
            }
            let result = try conversion.run([input], to: .standardOutput)
            report("ATTR", "job-impressions-completed=\(result.sheetsWritten)")
            report("INFO", "\(input.displayName): \(result.sheetsWritten) \(result.sheetsWritten == 1 ? "page" : "pages") saved as PDF")
            return 0
        } catch let error as PrintError {
            var e = error
            // cupsd's spool file means nothing to the user: name the document by its title.
            if e.path == nil || e.path == input.path { e.path = input.displayName }
            report("ERROR", "swiftprint: \(e)")
            return 1
        } catch {
            report("ERROR", "swiftprint: \(input.displayName): \(error)")
            return 1
        }
    }

    /// The job's settings: the PPD's defaults (the environment's PPD), then argv[5], then
    /// argv[4]'s copies, each read by the option declarations for where it comes from.
    public static func settings(arguments: [String], environment: [String: String]) throws -> JobSettings {
        var settings = JobSettings()
        var queuePageSize: String?
        let ppd = try environment["PPD"].map { try PPDFile(path: $0) }
        for (name, value) in ppd?.defaults ?? [] {
            if name == "PageSize" {
                queuePageSize = value
                settings.queueMedia = MediaSize.named(value) ?? ppd?.paper(named: value).map { MediaSize.custom(points: $0.size) }
            } else if let option = JobSettings.option(named: name), option.sources.contains(.queueDefaults) {
                try option.apply(text: value, to: &settings)
            }
        }
        let jobOptions = try CUPSOptions.parse(arguments[5])
        for (name, value) in jobOptions { try settings.apply(name: name, value: value, from: .printJob) }
        // cupsd says utf-8 unless the sender named a charset (document-format=text/plain;charset=…):
        // only a named one overrides swiftprint's own detection.
        if let charset = environment["CHARSET"], !charset.isEmpty, charset.lowercased() != "utf-8",
           !jobOptions.contains(where: { TextOptions.encoding.answers(to: $0.name) }) {
            settings.text.encoding = charset
        }
        if let copies = Int(arguments[4]), copies > 1 { try PaperOptions.copies.apply(text: arguments[4], to: &settings) }
        settings.resolve()
        let mediaName = jobOptions.last { PaperOptions.media.answers(to: $0.name) }?.value ?? queuePageSize
        if let ppd, let mediaName, let paper = ppd.paper(named: mediaName.split(separator: ",").first.map(String.init) ?? mediaName) {
            settings.unprintableEdges = paper.unprintable
        }
        settings.user = arguments[2]
        // A job's page may read no local file at all: the spool folder holds other users' jobs
        // under guessable names. Not an option a job can change.
        settings.localFiles = .none
        return settings
    }

    static func report(_ level: String, _ message: String) { CUPSMessages.send(level, message) }
}

/// swift-log lines as cupsd reads them: warnings become `WARNING:` (shown to the user), the rest `DEBUG:`.
struct CUPSLogHandler: LogHandler {
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] } set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        PrintFilter.report(event.level >= .warning ? "WARNING" : "DEBUG", "\(event.message)")
    }
}
