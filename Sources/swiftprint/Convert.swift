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
          swiftprint convert notes.txt -o notes.pdf
          swiftprint convert report.pdf notes.txt -o job.pdf --page-ranges 2-5
          cat app.log | swiftprint convert - -o log.pdf --media letter --line-numbers
          swiftprint convert report.txt -o - --footer "{file}||{page}/{pages}" | lp
          swiftprint convert slides.pdf -o a4.pdf --media A4 --print-scaling fit
          swiftprint convert photo.jpg scan.png report.pdf notes.txt -o job.pdf
          swiftprint convert holiday/*.jpg -o contact-sheet.pdf --photos-per-sheet 6 --print-scaling fill

        The output is written to a temporary file beside it and renamed into place only when \
        complete: a failed job leaves no partial file. The same inputs and options give the same \
        bytes; set SOURCE_DATE_EPOCH to stamp a creation date.
        """
    )

    @Argument(help: "The documents to print; - reads standard input.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The PDF to write; - writes standard output.")
    var output: String

    @OptionGroup(title: "Paper and job") var page: PageOptions
    @OptionGroup(title: "PDF documents and images") var document: DocumentOptions
    @OptionGroup(title: "Plain text") var text: TextOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("name at least one document to print") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
    }

    func run() throws {
        global.bootstrapLogging()
        Signals.install()
        let logger = Logger(label: "swiftprint.convert")
        let started = Date()
        var current = inputs[0]
        do {
            guard let dispatcher = Dispatcher.standard else { throw PrintError(.notAvailable, "libmagic cannot start") }
            let firstName = PrintInput(path: inputs[0]).displayName
            let info = page.printInfo(jobName: firstName)
            let paper = page.paper(for: info)
            let options = text.handlerOptions.merging(document.handlerOptions) { a, _ in a }
            var spools: [SpooledInput] = []
            var formatters: [PrintFormatter] = []
            for path in inputs {
                current = path
                let spooled = try SpooledInput(PrintInput(path: path))
                spools.append(spooled)
                let (type, handler) = try dispatcher.route(spooled.input)
                logger.debug("\(spooled.input.displayName): \(type.type?.identifier ?? "?") (\(type.mimeType), by \(type.method)) → \(handler.name)")
                let formatter = try handler.makeFormatter(for: spooled.input, options: options, info: info)
                if let t = formatter as? SimpleTextPrintFormatter, let e = t.detectedEncoding {
                    logger.debug("\(spooled.input.displayName): reading as \(e)")
                }
                formatters.append(formatter)
            }
            current = output
            let date = DocumentMetadata.fromEnvironment(title: nil).creationDate ?? Date()
            let renderer = TemplatePageRenderer(
                header: page.header, footer: page.footer, font: Font("Sans 9")!,
                values: .init(title: info.jobName ?? firstName, file: firstName, date: date))
            renderer.addPrintFormatter(formatters.count == 1 ? formatters[0] : PrintItemsFormatter(formatters), startingAtPageAt: 0)
            let job = PrintJob(renderer: renderer, info: info, paper: paper)
            job.imposition = document.imposition
            let progress = ProgressLine(quiet: global.quiet)
            job.progress = { progress.update(page: $0.page, of: $0.estimatedPages, estimate: $0.isEstimate) }
            let report = try job.writePDF(to: OutputDestination(path: output))
            progress.finish()
            logger.debug("\(report.pagesDrawn) pages drawn of \(report.pagesLaidOut) laid out, \(report.sheetsWritten) sheets, \(report.bytesWritten) bytes in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
            withExtendedLifetime(spools) {}
        } catch let error as PrintError {
            var e = error
            if e.path == nil, e.code != .outputFailed { e.path = current }
            throw fail(e)
        }
    }
}
