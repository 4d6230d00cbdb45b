import ContentDetection
import Foundation
import Logging
import PageLayout
import PDFObjects
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
    /// Raster output: called with each sheet's number (from 1) once its bytes are in the output.
    public var sheetWritten: ((Int) -> Void)?
    public var logger = Logger(label: "swiftprint.job")

    public init(settings: JobSettings, dispatcher: Dispatcher) {
        self.settings = settings
        self.dispatcher = dispatcher
    }

    /// Prints `inputs` to `destination`. Errors name the input they concern (its `path`).
    public func run(_ inputs: [PrintInput], to destination: OutputDestination) throws -> JobReport {
        try run(inputs, target: .destination(destination))
    }

    /// Raster sheets as they are made, for an app that sends them on itself:
    /// `settings.info.outputFormat` says which raster (PWG or Apple), and `sheet` gets each
    /// sheet's number (from 1) and its part of the stream, in order (the first part also holds
    /// the stream's own header); together the parts are the file `run` would write. Memory:
    /// one sheet of pixels, and one sheet's bytes.
    public func runRaster(_ inputs: [PrintInput], sheet: @escaping (_ number: Int, _ bytes: Data) throws -> Void) throws -> JobReport {
        guard settings.info.outputFormat == .pwgRaster || settings.info.outputFormat == .appleRaster else {
            throw PrintError(.invalidOption, "raster sheets need settings.info.outputFormat pwg-raster or urf")
        }
        return try run(inputs, target: .sheets(sheet))
    }

    /// Where a job's output goes.
    enum Target {
        case destination(OutputDestination)
        case sheets((Int, Data) throws -> Void)
    }

    /// The whole conversion holds `FontEngineLock` (PrintJob takes it again), whatever part of it
    /// measures or draws text.
    func run(_ inputs: [PrintInput], target: Target) throws -> JobReport {
        try FontEngineLock.held { try runHoldingFontEngines(inputs, target: target) }
    }

    private func runHoldingFontEngines(_ inputs: [PrintInput], target: Target) throws -> JobReport {
        guard let first = inputs.first else { throw PrintError(.noContent, "no documents to print") }
        try Installation.checkData()
        var settings = self.settings
        // Options that do not go together, and raster settings, are refused before any document is read.
        try settings.checkCombinations()
        let raster = try settings.info.outputFormat.flatMap { $0 == .pdf ? nil : try RasterDocumentWriter(info: settings.info, cmykProfile: settings.cmykProfile,
                                                                                                              intent: settings.renderingIntent ?? .auto) }
        if raster != nil { _ = try RasterHelperProcess.locate() }
        let (spools, formatters) = try open(inputs, settings: settings)
        // The first document's own page setup (HTML's @page) decides what the job leaves open.
        let setup: DocumentPageSetup?
        do { setup = try formatters[0].documentPageSetup() } catch let e as PrintError {
            throw Self.named(e, by: spools, inputs, concerning: first)
        }
        // The job's title: the one it was given, else the first document's own, else its name.
        if settings.info.jobName == nil { settings.info.jobName = formatters[0].documentTitle ?? first.displayName }
        let info = settings.info
        let paper = settings.paper(document: setup)
        let date = DocumentMetadata.fromEnvironment(title: nil).creationDate ?? Date()
        // The one rule between headers and a document's own page-margin boxes (HTML's): the
        // job's header or footer replaces the document's boxes on its edge; the queue's default
        // gives way to them.
        let documentEdges = formatters.reduce(PageMarginEdges()) { $0.union($1.documentMarginEdges) }
        let header = settings.headerIsQueueDefault && documentEdges.contains(.top) ? nil : settings.header
        let footer = settings.footerIsQueueDefault && documentEdges.contains(.bottom) ? nil : settings.footer
        let taken: PageMarginEdges = [header == nil ? [] : .top, footer == nil ? [] : .bottom]
        let setupTaken = info.media != nil || info.orientation != nil || settings.margins != nil
        for formatter in formatters {
            formatter.marginEdgesTakenByJob = taken
            formatter.pageSetupTakenByJob = setupTaken
        }
        let renderer = TemplatePageRenderer(
            header: header, footer: footer, font: Font("Sans 9")!,
            values: .init(title: info.jobName ?? first.displayName, file: first.displayName, date: date,
                          user: settings.user ?? ProcessInfo.processInfo.userName),
            onSheet: settings.headerOnSheet && (header != nil || footer != nil))
        renderer.addPrintFormatter(formatters.count == 1 ? formatters[0] : PrintItemsFormatter(formatters), startingAtPageAt: 0)
        let job = PrintJob(renderer: renderer, info: info, paper: paper)
        if renderer.onSheet {
            let margins = paper.margins
            job.sheetDecoration = SheetDecoration(bands: renderer.sheetBands(margins: margins)) { context, side, sides, size in
                renderer.drawOnSheet(side: side, of: sides, size: size, margins: margins, context: context)
            }
        }
        job.progress = progress
        job.renderingIntent = settings.renderingIntent
        // Documents may still be read while the job is written (HTML loads then).
        do {
            return try withExtendedLifetime(spools) {
                switch (target, raster) {
                case (.destination(let destination), nil): return try job.writePDF(to: destination)
                case (.destination(let destination), let raster?):
                    return try Self.write(job, as: raster, to: destination, limits: settings.limits, sheetWritten: sheetWritten ?? { _ in })
                case (.sheets(let sheet), let raster?): return try Self.write(job, as: raster, limits: settings.limits, sheets: sheet)
                case (.sheets, nil): throw PrintError(.invalidOption, "raster sheets need a raster output format")
                }
            }
        } catch let e as PrintError {
            throw Self.named(e, by: spools, inputs, concerning: inputs.count == 1 ? first : nil)
        }
    }

    /// Each input spooled, detected and opened by its handler, with the job's settings. Errors
    /// name the input they concern, as the caller knows it.
    private func open(_ inputs: [PrintInput], settings: JobSettings) throws -> ([SpooledInput], [PrintFormatter]) {
        var spools: [SpooledInput] = []
        var formatters: [PrintFormatter] = []
        for input in inputs {
            let spooled: SpooledInput
            let limit = SpooledInput.SizeLimit(bytes: settings.limits.megabytesPerInput << 20, option: LimitOptions.maxInputSize.name)
            do { spooled = try SpooledInput(input, limit: limit) } catch var e as PrintError { e.path = e.path ?? input.path; throw e }
            spools.append(spooled)
            do {
                let (type, handler) = try dispatcher.route(spooled.input)
                logger.debug("\(input.displayName): \(type.type?.identifier ?? "?") (\(type.mimeType), by \(type.method)) → \(handler.name)")
                // The handler gets what detection found, and the bytes it read.
                var input = spooled.input
                input.contentType = type.type?.identifier
                input.head = type.head
                let formatter = try handler.makeFormatter(for: input, settings: settings)
                formatter.pageLimit = (settings.limits.pagesPerDocument, input.path)
                formatters.append(formatter)
            } catch let e as PrintError {
                throw Self.named(e, by: spools, inputs, concerning: input)
            }
        }
        return (spools, formatters)
    }

    /// Writes the job's PDF to a scratch file, then draws it as raster into `destination`, in
    /// swiftprint-raster (`RasterHelperProcess` says why).
    static func write(_ job: PrintJob, as raster: RasterDocumentWriter, to destination: OutputDestination, limits: JobLimits,
                      sheetWritten: (Int) -> Void) throws -> JobReport {
        try withScratchPDF(of: job, limits: limits) { pdf, pages, report in
            let output = try OutputFile(destination)
            do {
                report.sheetsWritten = try RasterHelperProcess.draw(pdf: pdf, pages: pages, settings: raster.settings, limits: limits,
                                                                    to: { output.write($0) }, sheetWritten: { number in
                    if let error = output.error { throw error }
                    sheetWritten(number)
                })
                try output.commit()
            } catch {
                output.abandon()
                throw error
            }
            report.bytesWritten = output.bytesWritten
        }
    }

    /// Writes the job's PDF to a scratch file, then hands it on as raster, a sheet at a time.
    static func write(_ job: PrintJob, as raster: RasterDocumentWriter, limits: JobLimits,
                      sheets: (Int, Data) throws -> Void) throws -> JobReport {
        try withScratchPDF(of: job, limits: limits) { pdf, pages, report in
            var part = Data(), total = 0
            report.sheetsWritten = try RasterHelperProcess.draw(pdf: pdf, pages: pages, settings: raster.settings, limits: limits,
                                                                to: { part.append(contentsOf: $0) }, sheetWritten: { number in
                try sheets(number, part)
                total += part.count
                part = Data()
            })
            report.bytesWritten = total
        }
    }

    /// The job's PDF in a scratch file that `body` reads, removed after. Its images are held to
    /// the pixel limit before a page is drawn: a PDF of a few hundred bytes can declare an
    /// image of 100000 × 100000 pixels, which poppler would decode for minutes.
    private static func withScratchPDF(of job: PrintJob, limits: JobLimits, _ body: (String, Int, inout JobReport) throws -> Void) throws -> JobReport {
        guard let (fd, pdf) = TemporaryFiles.make(in: TemporaryFiles.folder, prefix: "swiftprint-raster-") else {
            throw PrintError.system(.outputFailed, path: TemporaryFiles.folder, "cannot create a temporary file", errno: errno)
        }
        close(fd)
        TemporaryFiles.register(pdf)
        defer { unlink(pdf); TemporaryFiles.unregister(pdf) }
        var report = try job.writePDF(to: .file(pdf))
        let document = try QPDFDocument(path: pdf)
        try checkImagesBeforeDrawing(document, limits: limits)
        try body(pdf, document.pageCount, &report)
        return report
    }

    /// Refuses a job's PDF whose pages draw an image of more pixels than the job's limit, before
    /// poppler decodes any (the fuzz target that draws raster in its own process asks too).
    package static func checkImagesBeforeDrawing(_ document: QPDFDocument, limits: JobLimits) throws {
        for page in 0..<document.pageCount {
            let pixels = try document.largestImagePixels(onPage: page)
            if pixels > limits.pixelsPerImage {
                throw JobLimits.crossed(LimitOptions.maxPixels, path: nil,
                                        "page \(page + 1) draws an image of \(pixels) pixels, more than the limit of \(limits.pixelsPerImage)")
            }
        }
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
