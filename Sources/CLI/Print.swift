import ArgumentParser
import Foundation
import Logging
import SwiftPrint

/// printToPrinter: the same pipeline as convert, sent to a printer through CUPS, then followed
/// until it is done.
struct Print: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print documents on a printer, and follow the job until it is done.",
        discussion: """
        The documents go through the same pipeline as convert (every option of convert works), \
        into one PDF that is sent to the printer as one job with libcups. First the printer is \
        asked what it supports: a job asking for two sides, a paper or colour it lacks fails \
        before anything is drawn or sent (exit 64). Without --media, the printer's default paper \
        is used (unless the document names its own).

        Then progress is shown ("printing page 2 of 5") until the job is completed (exit 0), \
        cancelled (130) or aborted by the printer (75). --no-wait prints the job's number and \
        returns at once. Interrupting the wait does not cancel the job: swiftprint cancel does.

        Examples:
          swiftprint print -d Office report.pdf notes.txt
          swiftprint print -d Office --sides two-sided-long-edge slides.pdf
          swiftprint print --preset office.json --no-wait invoice.html
          swiftprint print --pick --sides two-sided-long-edge report.pdf
        """ + "\n\n" + JobFlagsHelp.text
    )

    @Option(name: .short, help: ArgumentHelp("The printer (swiftprint printers lists them); the preset's or CUPS's default when not given.", valueName: "printer"),
            completion: .custom(Completion.printers))
    var destination: String?

    @Flag(name: .customLong("pick"), help: "Choose the printer from a list (arrows and typing on a terminal, else a number on standard input); the choice is remembered and listed first next time.")
    var pick = false

    @Flag(name: .customLong("no-wait"), help: "Print the job's number and return once it is sent.")
    var noWait = false

    func validate() throws {
        if pick, destination != nil { throw ValidationError("--pick chooses the printer: give it or -d, not both") }
        if pick, isatty(STDIN_FILENO) != 1, job.inputs.contains("-") {
            throw ValidationError("--pick reads the choice from standard input, which a document '-' also reads")
        }
    }

    @OptionGroup var job: JobFlags
    @OptionGroup var global: GlobalOptions


    func run() throws {
        global.bootstrapLogging()
        TemporaryFiles.removeOnTerminationSignals()
        let submitted: SubmittedJob
        do {
            var settings = try job.settings()
            let picked = pick ? try PrinterChoice.pick(for: PrinterRequirements(
                color: settings.info.outputType == .photo, twoSided: settings.info.duplex?.isTwoSided ?? false,
                paper: settings.info.media)) : nil
            let delivery = try PrinterDelivery(printer: picked ?? destination ?? settings.info.printerID)
            settings.info.printerID = delivery.printer
            delivery.capabilities.applyPrinterFacts(to: &settings)
            try job.presets.saveIfAsked(settings.info)
            let sent = try delivery.outputSettings(for: settings.info)
            Logger(label: "swiftprint.print").info("""
                \(delivery.printer) gets \((sent.outputFormat ?? .pdf).mimeType)\
                \(sent.outputFormat == .pdf ? "" : " at \(sent.printerResolution ?? .standard), \(sent.rasterType?.rawValue ?? "")")
                """)
            let dispatcher = Dispatcher.standard
            let conversion = DocumentConversion(settings: settings, dispatcher: dispatcher)
            let documents = try job.printInputs(settings)
            // --title names the job on the printer too.
            let name = settings.info.jobName ?? documents[0].displayName
            submitted = try delivery.send(title: name, info: settings.info) { destination, info in
                var drawn = conversion
                drawn.settings.info = info
                return try drawn.run(documents, to: destination)
            }
        } catch let e as PrintError {
            throw fail(e)
        }
        if noWait {
            print(submitted.id)
            return
        }
        try follow(submitted)
    }

    /// Reports the job's progress until it is final; the exit code says how it ended.
    private func follow(_ job: SubmittedJob) throws {
        let say = { (line: String) in if !global.quiet { FileHandleStderr.write("swiftprint: job \(job.id) on \(job.printer): \(line)\n") } }
        say("sent, \(job.pages) page\(job.pages == 1 ? "" : "s")" + (job.printerCopies > 1 ? ", \(job.printerCopies) copies made by the printer" : ""))
        let final: JobStatus
        do {
            final = try PrintCenter.wait(forJob: job.id) { status in
                switch status.state {
                case .processing:
                    say("printing page \(min(status.impressionsCompleted + 1, max(job.impressions, 1))) of \(job.impressions)")
                case .pending, .held, .stopped:
                    say(status.state.rawValue + (status.message.map { ": \($0)" } ?? ""))
                default: break
                }
            }
        } catch let e as PrintError {
            throw fail(e)
        }
        let why = ([final.message].compactMap { $0 } + final.stateReasons).joined(separator: "; ")
        switch final.state {
        case .completed:
            say("completed")
        case .cancelled:
            FileHandleStderr.write("swiftprint: job \(job.id) on \(job.printer) was cancelled\(why.isEmpty ? "" : ": \(why)")\n")
            throw ExitCode(130)
        default:
            throw fail(PrintError(.jobFailed, "job \(job.id) on \(job.printer) was \(final.state.rawValue)\(why.isEmpty ? "" : ": \(why)")"))
        }
    }
}
