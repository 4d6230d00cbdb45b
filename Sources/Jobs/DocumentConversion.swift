import ContentDetection
import Foundation
import Logging
import PageLayout
import PDFOutput
import PrintGraphics
import PrintModel
import PrintOptions
import PrintSupport
import RasterOutput

/// One print job from documents to PDF: each input is detected and routed to its handler, the
/// formatters are put one after another (pages numbered continuously), the header and footer
/// templates are drawn around them, and the paginator writes the sheets. `swiftprint convert`
/// and the CUPS filter both run this, so the same options give the same output.
public struct DocumentConversion {
    public var settings: JobSettings
    public var dispatcher: Dispatcher
    /// Called after each page is done.
    public var progress: ((JobProgress) -> Void)?
    public var logger = Logger(label: "swiftprint.job")

    public init(settings: JobSettings, dispatcher: Dispatcher) {
        self.settings = settings
        self.dispatcher = dispatcher
    }

    /// Prints `inputs` to `destination`. Errors name the input they concern (its `path`).
    public func run(_ inputs: [PrintInput], to destination: OutputDestination) throws -> JobReport {
        guard let first = inputs.first else { throw PrintError(.noContent, "no documents to print") }
        var settings = self.settings
        if settings.info.jobName == nil { settings.info.jobName = first.displayName }
        let info = settings.info
        // Raster settings are checked before any document is read.
        let raster = try info.outputFormat.flatMap { $0 == .pdf ? nil : try RasterDocumentWriter(info: info) }
        var spools: [SpooledInput] = []
        var formatters: [PrintFormatter] = []
        for input in inputs {
            let spooled: SpooledInput
            do { spooled = try SpooledInput(input) } catch var e as PrintError { e.path = e.path ?? input.path; throw e }
            spools.append(spooled)
            do {
                let (type, handler) = try dispatcher.route(spooled.input)
                logger.debug("\(input.displayName): \(type.type?.identifier ?? "?") (\(type.mimeType), by \(type.method)) → \(handler.name)")
                // The handler gets what detection found, and the bytes it read.
                var input = spooled.input
                input.contentType = type.type?.identifier
                input.head = type.head
                let formatter = try handler.makeFormatter(for: input, settings: settings)
                formatters.append(formatter)
            } catch let e as PrintError {
                throw Self.named(e, by: spools, inputs, concerning: input)
            }
        }
        // The first document's own page setup (HTML's @page) decides what the job leaves open.
        let setup: DocumentPageSetup?
        do { setup = try formatters[0].documentPageSetup() } catch let e as PrintError {
            throw Self.named(e, by: spools, inputs, concerning: first)
        }
        let paper = settings.paper(document: setup)
        let date = DocumentMetadata.fromEnvironment(title: nil).creationDate ?? Date()
        let renderer = TemplatePageRenderer(
            header: settings.header, footer: settings.footer, font: Font("Sans 9")!,
            values: .init(title: info.jobName ?? first.displayName, file: first.displayName, date: date,
                          user: settings.user ?? ProcessInfo.processInfo.userName),
            onSheet: settings.headerOnSheet && (settings.header != nil || settings.footer != nil))
        renderer.addPrintFormatter(formatters.count == 1 ? formatters[0] : PrintItemsFormatter(formatters), startingAtPageAt: 0)
        let job = PrintJob(renderer: renderer, info: info, paper: paper)
        job.imposition = settings.imposition
        if renderer.onSheet {
            let margins = paper.margins
            job.sheetDecoration = SheetDecoration(bands: renderer.sheetBands(margins: margins)) { context, side, sides, size in
                renderer.drawOnSheet(side: side, of: sides, size: size, margins: margins, context: context)
            }
        }
        job.progress = progress
        // Documents may still be read while the job is written (HTML loads then).
        do {
            return try withExtendedLifetime(spools) {
                guard let raster else { return try job.writePDF(to: destination) }
                return try Self.write(job, as: raster, to: destination)
            }
        } catch let e as PrintError {
            throw Self.named(e, by: spools, inputs)
        }
    }

    /// Writes the job's PDF to a scratch file, then draws it as raster into `destination`.
    static func write(_ job: PrintJob, as raster: RasterDocumentWriter, to destination: OutputDestination) throws -> JobReport {
        guard let (fd, pdf) = TemporaryFiles.make(in: TemporaryFiles.folder, prefix: "swiftprint-raster-") else {
            throw PrintError.system(.outputFailed, path: TemporaryFiles.folder, "cannot create a temporary file", errno: errno)
        }
        close(fd)
        TemporaryFiles.register(pdf)
        defer { unlink(pdf); TemporaryFiles.unregister(pdf) }
        var report = try job.writePDF(to: .file(pdf))
        let output = try OutputFile(destination)
        do {
            report.sheetsWritten = try raster.write(pdf: pdf, to: output)
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
        report.bytesWritten = output.bytesWritten
        return report
    }

    /// `error` naming its file the way the caller knows it, not by its spool copy; one naming
    /// no file is about `input`, when given.
    static func named(_ error: PrintError, by spools: [SpooledInput], _ inputs: [PrintInput],
                      concerning input: PrintInput? = nil) -> PrintError {
        var e = error
        if e.path == nil, let input {
            e.path = input.path
        } else if let i = spools.firstIndex(where: { $0.input.path == e.path }) {
            e.path = inputs[i].path
        }
        return e
    }
}
