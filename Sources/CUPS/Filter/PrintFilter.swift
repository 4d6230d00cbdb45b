import Foundation
import Logging
import SwiftPrint
import CUPSCommon
import CUPSLibrary

/// The CUPS filter: `swiftprint job-id user title copies options [file]`, installed as
/// `$(serverbin)/filter/swiftprint`. It reads the file (or standard input), prints it with the
/// same dispatcher, handlers and paginator as `swiftprint convert`, writes PDF to standard
/// output (or, for a printer queue whose printer takes none, the PWG or Apple raster CUPS asks
/// for in FINAL_CONTENT_TYPE, a sheet at a time), and talks to cupsd in
/// `ERROR:`/`WARNING:`/`INFO:`/`DEBUG:`/`ATTR:`/`PAGE:` lines on standard error.
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
            // cupsd hears of each sheet: of a raster sheet as it goes out, of PDF's at the end.
            let isRaster = settings.info.outputFormat == .pwgRaster || settings.info.outputFormat == .appleRaster
            if isRaster { conversion.sheetWritten = { report("PAGE", "\($0) 1") } }
            let sheets = try conversion.run([input], to: .standardOutput).sheetsWritten
            if !isRaster { for number in stride(from: 1, through: sheets, by: 1) { report("PAGE", "\(number) 1") } }
            report("ATTR", "job-impressions-completed=\(sheets)")
            let made = settings.info.outputFormat.map { $0 == .pdf ? "PDF" : $0.mimeType } ?? "PDF"
            report("INFO", "\(input.displayName): \(sheets) \(sheets == 1 ? "sheet side" : "sheet sides") made as \(made)")
            return 0
        } catch let error as PrintError {
            var e = error
            // cupsd's spool file means nothing to the user: name the document by its title.
            if e.path == nil || e.path == input.path { e.path = input.displayName }
            // The option to change, as whoever may set it would: a job, the queue or neither.
            let option = e.option.flatMap(JobSettings.option(named:)).map {
                $0.sources.contains(.printJob) ? " (lp -o \($0.name)=…)"
                    : $0.sources.contains(.queueDefaults) ? " (\($0.name), a setting of the queue)"
                    : " (\($0.name), which a print job cannot set)"
            } ?? ""
            report("ERROR", "swiftprint: \(e)\(option)")
            return 1
        } catch {
            report("ERROR", "swiftprint: \(input.displayName): \(error)")
            return 1
        }
    }

    /// The job's settings: the PPD's defaults (the environment's PPD), then argv[5], then
    /// argv[4]'s copies, each read by the option declarations for where it comes from; the
    /// printer's margins from the PPD, and the raster CUPS asks for (FINAL_CONTENT_TYPE). Options
    /// nothing uses are reported to cupsd here, where they are read.
    public static func settings(arguments: [String], environment: [String: String]) throws -> JobSettings {
        var settings = JobSettings()
        let ppd = try environment["PPD"].map { try PPDFile(path: $0) }
        let jobOptions = try CUPSOptions.parse(arguments[5])
        let raster = environment["FINAL_CONTENT_TYPE"].flatMap(OutputFormat.init(name:)).flatMap { $0 == .pdf ? nil : $0 }
        // The queue's printer, read once from its PPD as `swiftprint print` reads one over IPP;
        // its raster for this job's options only when CUPS asks for raster.
        let printer = ppd.map { PrinterCapabilities(ppd: $0, jobOptions: raster == nil ? nil : jobOptions) }
        printer?.applyPrinterFacts(to: &settings)
        for (name, value) in ppd?.defaults ?? [] {
            if let option = JobSettings.option(named: name), option.sources.contains(.queueDefaults) {
                try option.apply(text: value, to: &settings)
            }
        }
        try checkArrivedWhole(jobOptions, ppd: ppd)
        // Only under cupsd (which names the queue in PRINTER) is there a job to ask about.
        if environment["PRINTER"] != nil, let job = Int(arguments[1]) { try checkNoCollections(job: job, given: jobOptions) }
        for (name, value) in jobOptions { try settings.apply(name: name, value: value, from: .printJob) }
        // A header or footer the job did not ask for is the queue's.
        settings.headerIsQueueDefault = settings.header != nil && !jobOptions.contains { PaperOptions.header.answers(to: $0.name) }
        settings.footerIsQueueDefault = settings.footer != nil && !jobOptions.contains { PaperOptions.footer.answers(to: $0.name) }
        // cupsd says utf-8 unless the sender named a charset (document-format=text/plain;charset=…):
        // only a named one overrides swiftprint's own detection.
        if let charset = environment["CHARSET"], !charset.isEmpty, charset.lowercased() != "utf-8",
           !jobOptions.contains(where: { TextOptions.encoding.answers(to: $0.name) }) {
            settings.text.encoding = charset
        }
        if let copies = Int(arguments[4]), copies > 1 { try PaperOptions.copies.apply(text: arguments[4], to: &settings) }
        settings.resolve()
        if let raster {
            try setRaster(raster, in: &settings, printer: printer, named: environment["PRINTER"] ?? "the printer")
        }
        reportIgnored(jobOptions, ppd: ppd)
        settings.user = arguments[2]
        // A title the sender chose (lp -t) names the PDF; lp's own, the file's name, gives way
        // to the document's title (HTML's <title>, …), as in swiftprint convert.
        let title = arguments[3]
        if settings.info.jobName == nil, !title.isEmpty,
           !CUPSOptions.allValues(of: "document-name-supplied", in: arguments[5]).contains(title) {
            settings.info.jobName = title
        }
        // A job's page may read no local file at all: the spool folder holds other users' jobs
        // under guessable names. Not an option a job can change.
        settings.localFiles = .none
        return settings
    }

    /// Raster for a printer queue (CUPS asks for it in FINAL_CONTENT_TYPE), settled from the
    /// queue's PPD as `swiftprint print` settles it from a printer's IPP attributes: the
    /// resolution, colour and depth the PPD gives for the job's options (print-quality,
    /// print-color-mode, …), as CUPS's own raster filters read them, and the way the printer
    /// turns the backs of sheets (`*cupsBackSide`).
    static func setRaster(_ format: OutputFormat, in settings: inout JobSettings, printer: PrinterCapabilities?, named name: String) throws {
        guard let printer else { settings.info.outputFormat = format; return }
        settings.info = try printer.settleRaster(format, in: settings.info, printer: name)
    }

    /// Refuses a job whose text options did not arrive as they were written, rather than print
    /// without them. On the way from `lp -o`, libcups splits an unquoted value at its spaces
    /// (`swiftprint-font=DejaVu Sans Mono` arrives as `swiftprint-font=DejaVu` and the options
    /// `Sans` and `Mono`; collections are `checkNoCollections`'); and a password sent as
    /// `swiftprint-password` was shown to every user who lists jobs.
    static func checkArrivedWhole(_ options: [(name: String, value: String)], ppd: PPDFile?) throws {
        if options.contains(where: { $0.name.lowercased() == PlacementOptions.exposedPasswordName }) {
            throw PrintError(.invalidOption, "\(PlacementOptions.exposedPasswordName) is shown to everyone who lists the job: send the password as document-password, which CUPS shows to no one",
                             option: PlacementOptions.password.name)
        }
        let isPassword = { (name: String) in PlacementOptions.password.answers(to: name) }
        let ppdOptions = Set(ppd?.defaults.map(\.name) ?? [])
        // Words that no option has, and that are not written as options are (lower case with
        // dashes, or a PPD's CamelCase: crop-to-fit, pdfAutoRotate, which other filters take and
        // this one ignores with a warning): pieces of a text (`Sans`, `Mono`, `10`, `of`, `{page}`).
        let words = options.filter { option in
            (option.value == "true" || option.value == "false") && JobSettings.option(named: option.name) == nil
                && !ppdOptions.contains(option.name) && !CUPSJobAttributes.actedOnElsewhere(option.name)
                && !CUPSJobAttributes.bareWords.contains(option.name.lowercased()) && !Self.isWrittenAsAnOption(option.name)
        }
        // (A password's value is never repeated: the reason is shown to every user.)
        let text = options.filter { JobSettings.option(named: $0.name)?.takesFreeText == true }
            .map { isPassword($0.name) ? (name: $0.name, value: "…") : $0 }
        guard !words.isEmpty, !text.isEmpty || words.contains(where: { $0.name.contains("{") || $0.name.contains("}") }) else { return }
        // Words split off a password would be pieces of it: they are not repeated either.
        let stray = text.contains(where: { isPassword($0.name) }) ? "\(words.count) words"
            : words.map { "'\($0.value == "false" ? "no" : "")\($0.name)'" }.joined(separator: ", ")
        if let first = text.first {
            throw PrintError(.invalidOption, "\(stray) arrived as options of their own beside \(text.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")): a value with spaces needs quotes inside the option: lp -o \"\(first.name)='…'\"")
        }
        throw PrintError(.invalidOption, "\(stray) arrived as options of their own: a value with spaces needs quotes inside the option (lp -o \"swiftprint-footer='page {page} of {pages}'\"), and a template's first field is written %{…}")
    }

    /// Whether `name` is written as options are: more than one letter, lower case with a dash
    /// (`crop-to-fit`) or CamelCase after a lower-case start (`pdfAutoRotate`); not a word of
    /// text (`Sans`, `of`, `10`).
    static func isWrittenAsAnOption(_ name: String) -> Bool {
        guard name.count > 1, name.first?.isLowercase == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            return false
        }
        return name.contains("-") || name.dropFirst().contains(where: \.isUppercase)
    }

    /// Refuses a job that cupsd holds one of swiftprint's options for as an IPP collection
    /// (`lp -o "swiftprint-footer='{file}||…'"`): cupsd passes no collection to a filter, so the
    /// option would be lost without a word. One request to cupsd a job, for the free-text
    /// options argv[5] does not hold.
    static func checkNoCollections(job: Int, given: [(name: String, value: String)]) throws {
        let missing = JobSettings.declaredOptions.filter { option in
            option.sources.contains(.printJob) && option.takesFreeText && !given.contains { option.answers(to: $0.name) }
        }.flatMap { [$0.name] + $0.aliases }
        guard !missing.isEmpty else { return }
        let collections: [String]
        do { collections = try CUPSJobQuery.collections(ofJob: job, among: missing) } catch {
            report("DEBUG", "swiftprint: cannot ask cupsd for the job's options sent as collections: \(error)")
            return
        }
        guard let name = collections.first else { return }
        throw PrintError(.invalidOption, "\(name) arrived as an IPP collection, which CUPS does not pass on: libcups sends a value that starts with '{' as one; write the template's first field as %{…}: lp -o \"\(name)='%{file}||page {page} of {pages}'\"")
    }

    /// Tells the user (in the job's log and `lpstat -l`) which of the job's options nothing
    /// used: not swiftprint's, not the queue's PPD's, and none of the IPP attributes that cupsd
    /// and the backend act on themselves.
    static func reportIgnored(_ options: [(name: String, value: String)], ppd: PPDFile?) {
        let ppdOptions = Set(ppd?.defaults.map(\.name) ?? [])
        let ignored = options.filter { option in
            JobSettings.option(named: option.name) == nil && !ppdOptions.contains(option.name)
                && !CUPSJobAttributes.actedOnElsewhere(option.name)
        }
        guard !ignored.isEmpty else { return }
        let list = ignored.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
        report("WARNING", "swiftprint ignored \(ignored.count == 1 ? "an option it does not know" : "options it does not know"): \(list)")
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
