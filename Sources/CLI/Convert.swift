import ArgumentParser
import Foundation
import Logging
import SwiftPrint

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert documents to one print-ready PDF.",
        discussion: """
        Each input's type is detected from its content (swiftprint detect shows how); several \
        inputs become one document, in order, each starting on a new page, numbered continuously.

        Examples:
          swiftprint convert notes.txt                    # writes notes.pdf beside it
          swiftprint convert notes.txt -o notes.pdf
          swiftprint convert report.pdf notes.txt -o job.pdf --page-ranges 2-5
          cat app.log | swiftprint convert - -o log.pdf --media letter --line-numbers
          swiftprint convert report.txt -o - --footer "{file}||{page}/{pages}" | lp
          swiftprint convert slides.pdf -o a4.pdf --media A4 --print-scaling fit
          swiftprint convert photo.jpg scan.png report.pdf notes.txt -o job.pdf
          swiftprint convert holiday/*.jpg -o sheet.pdf --photos-per-sheet 6

        The output is written to a temporary file beside it and renamed into place only when \
        complete: a failed job leaves no partial file. The same inputs and options give the same \
        bytes when SOURCE_DATE_EPOCH is set (the PDF is dated then, else now).
        """ + "\n\n" + JobFlagsHelp.text
    )

    @Option(name: .shortAndLong,
            help: "The PDF to write; - writes standard output. Without it, one input file is written beside itself (notes.txt -> notes.pdf).")
    var output: String?

    @Flag(help: "Replace the PDF beside the input when it exists (without -o).")
    var force = false

    @OptionGroup var job: JobFlags
    @OptionGroup var global: GlobalOptions


    func validate() throws {
        try OutputChoice.checkGivenOnce()
        if let output { try OutputChoice.refuseTerminal(output, kind: "a PDF") }
    }

    func run() throws {
        global.bootstrapLogging()
        let output: String
        do {
            output = try self.output ?? OutputChoice.beside(inputs: job.inputs, extension: "pdf", force: force)
        } catch let error as PrintError { throw fail(error) }
        TemporaryFiles.removeOnTerminationSignals()
        let logger = Logger(label: "swiftprint.convert")
        let started = Date()
        do {
            let dispatcher = Dispatcher.standard
            let settings = try job.settings()
            try job.presets.saveIfAsked(settings.info)
            var conversion = DocumentConversion(settings: settings, dispatcher: dispatcher)
            let progress = ProgressLine(quiet: global.quiet)
            conversion.progress = { progress.update(page: $0.page, of: $0.estimatedPages, estimate: $0.isEstimate) }
            let report = try conversion.run(job.printInputs(settings), to: OutputDestination(path: output))
            progress.finish()
            logger.debug("\(report.pagesDrawn) pages drawn of \(report.pagesLaidOut) laid out, \(report.sheetsWritten) sheets, \(report.bytesWritten) bytes in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
        } catch let error as PrintError {
            var e = error
            // An option's error is the option's, not the output file's.
            if e.path == nil, e.code != .outputFailed, e.code != .outputWriteFailed, e.code != .invalidOption { e.path = output }
            throw fail(e)
        }
    }
}
