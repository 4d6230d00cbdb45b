import ArgumentParser
import Foundation
import Logging
import SwiftPrint

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a document to print-ready PDF.",
        discussion: """
        Examples:
          swiftprint convert notes.txt -o notes.pdf
          cat app.log | swiftprint convert - -o log.pdf --media letter --line-numbers
          swiftprint convert report.txt -o - --page-ranges 2-5 --footer "{file}||{page}/{pages}" | lp
          swiftprint convert sjis.txt -o out.pdf --encoding SHIFT_JIS --font "Noto Sans Mono CJK JP 9"

        The output is written to a temporary file beside it and renamed into place only when \
        complete: a failed job leaves no partial file. The same input and options give the same \
        bytes; set SOURCE_DATE_EPOCH to stamp a creation date.
        """
    )

    @Argument(help: "The document to print; - reads standard input.")
    var input: String

    @Option(name: .shortAndLong, help: "The PDF to write; - writes standard output.")
    var output: String

    @OptionGroup(title: "Paper and job") var page: PageOptions
    @OptionGroup(title: "Plain text") var text: TextOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        Signals.install()
        let logger = Logger(label: "swiftprint.convert")
        let started = Date()
        do {
            let printInput = PrintInput(path: input)
            let info = page.printInfo(jobName: printInput.displayName)
            let paper = page.paper(for: info)
            // Detection by content arrives with the dispatcher; until then every input is text.
            guard let handler = HandlerRegistry.standard.handler(for: "public.plain-text") else {
                throw PrintError(.unknownFormat, path: input, "no handler for plain text")
            }
            let formatter = try handler.makeFormatter(for: printInput, options: text.handlerOptions, info: info)
            if let t = formatter as? SimpleTextPrintFormatter, let e = t.detectedEncoding {
                logger.debug("\(printInput.displayName): reading as \(e)")
            }
            let date = DocumentMetadata.fromEnvironment(title: nil).creationDate ?? Date()
            let renderer = TemplatePageRenderer(
                header: page.header, footer: page.footer, font: Font("Sans 9")!,
                values: .init(title: info.jobName ?? printInput.displayName, file: printInput.displayName, date: date))
            renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
            let job = PrintJob(renderer: renderer, info: info, paper: paper)
            let progress = ProgressLine(quiet: global.quiet)
            job.progress = { progress.update(page: $0.page, of: $0.estimatedPages, estimate: $0.isEstimate) }
            let report = try job.writePDF(to: OutputDestination(path: output))
            progress.finish()
            logger.debug("\(report.pagesDrawn) pages drawn of \(report.pagesLaidOut) laid out, \(report.sheetsWritten) sheets, \(report.bytesWritten) bytes in \(String(format: "%.3f", Date().timeIntervalSince(started))) s")
        } catch let error as PrintError {
            var e = error
            if e.path == nil, e.code != .outputFailed { e.path = input }
            throw fail(e)
        }
    }
}
