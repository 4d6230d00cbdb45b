import Foundation
import Observation

/// What a `PrintInteractionController` tells its delegate, like UIPrintInteractionControllerDelegate.
/// Every method has a default.
public protocol PrintInteractionControllerDelegate: AnyObject {
    /// Chooses the paper from those the printer takes (UIKit's choosePaper); nil keeps the
    /// precedence rule's choice (the job's media, the printer's default, the locale's).
    /// `PrintPaper.best(for:from:)` is the usual answer.
    func printInteractionController(_ controller: PrintInteractionController, choosePaper papers: [PrintPaper]) -> PrintPaper?
    /// For a roll-fed printer (a receipt printer), the length in points to cut each page at
    /// (UIKit's cutLengthFor:). `paper` is the roll at the longest length the printer cuts,
    /// with its printable area. The length is held within the lengths the printer cuts, and
    /// the job's pages are that long, laid out on the roll's printable area (no page margins
    /// beyond the printer's own). Nil (the default) keeps the paper the job would have.
    func printInteractionController(_ controller: PrintInteractionController, cutLengthFor paper: PrintPaper) -> Double?
    /// The job is about to be drawn and sent.
    func printInteractionControllerWillStartJob(_ controller: PrintInteractionController)
    /// The job's state or progress changed (pages printed, held, stopped …).
    func printInteractionController(_ controller: PrintInteractionController, jobDidChange status: JobStatus)
    /// The job reached its final state: completed, cancelled or aborted.
    func printInteractionControllerDidFinishJob(_ controller: PrintInteractionController)
}

extension PrintInteractionControllerDelegate {
    public func printInteractionController(_ controller: PrintInteractionController, choosePaper papers: [PrintPaper]) -> PrintPaper? { nil }
    public func printInteractionController(_ controller: PrintInteractionController, cutLengthFor paper: PrintPaper) -> Double? { nil }
    public func printInteractionControllerWillStartJob(_ controller: PrintInteractionController) {}
    public func printInteractionController(_ controller: PrintInteractionController, jobDidChange status: JobStatus) {}
    public func printInteractionControllerDidFinishJob(_ controller: PrintInteractionController) {}
}

/// Prints what an app has — files, one formatter, or a page renderer — to a printer or a PDF,
/// like UIPrintInteractionController. Exactly one of `printingItems`, `printFormatter` and
/// `printPageRenderer` is used: setting one clears the others.
///
/// `jobStatus` and `submittedJob` are observable (Observation's `withObservationTracking`, or
/// SwiftUI), like UIDocument's documentState; they change on the thread that follows the job.
// Safe: every stored property is reached through `lock`.
public final class PrintInteractionController: Observable, @unchecked Sendable {
    private enum Content {
        case items([PrintInput])
        case formatter(PrintFormatter)
        case renderer(PrintPageRenderer)
    }

    /// What prints and its settings are read by the thread that converts the job while the app
    /// may set them: each goes through the lock.
    private var content: Content? {
        get { lock.withLock { _content } }
        set { lock.withLock { _content = newValue } }
    }
    private var _content: Content?
    private let lock = NSLock()

    /// The job's settings; nil prints with every setting at its default.
    public var printInfo: PrintInfo? {
        get { lock.withLock { _printInfo } }
        set { lock.withLock { _printInfo = newValue } }
    }
    private var _printInfo: PrintInfo?
    public weak var delegate: PrintInteractionControllerDelegate?

    /// The job on the printer's server once sent, and its last known state (UIDocument's
    /// documentState, for jobs). Changes are also reported to the delegate.
    public private(set) var submittedJob: SubmittedJob? {
        get { registrar.access(self, keyPath: \.submittedJob); return lock.withLock { _submittedJob } }
        set { registrar.withMutation(of: self, keyPath: \.submittedJob) { lock.withLock { _submittedJob = newValue } } }
    }
    public private(set) var jobStatus: JobStatus? {
        get { registrar.access(self, keyPath: \.jobStatus); return lock.withLock { _jobStatus } }
        set { registrar.withMutation(of: self, keyPath: \.jobStatus) { lock.withLock { _jobStatus = newValue } } }
    }
    private var _submittedJob: SubmittedJob?
    private var _jobStatus: JobStatus?
    private let registrar = ObservationRegistrar()

    public init() {}

    /// Whether this machine can print now: its CUPS server answers and has a printer
    /// (UIPrintInteractionController.isPrintingAvailable).
    public static var isPrintingAvailable: Bool {
        (try? PrinterDirectory.printers(capabilities: false).isEmpty == false) ?? false
    }

    /// Whether the file at `url` is of a type swiftprint prints (by its content, as libmagic
    /// reads it); `Dispatcher.standard` answers.
    public static func canPrint(url: URL) -> Bool { Dispatcher.standard.canPrint(url: url) }

    /// Whether `data` is of a type swiftprint prints.
    public static func canPrint(data: Data) -> Bool { Dispatcher.standard.canPrint(data: data) }

    /// The UTIs of every type swiftprint prints.
    public static var printableUTIs: [String] { Dispatcher.standard.printableUTIs }

    /// Files (PDF, images, text, HTML, maps …), printed one after another as one job.
    public var printingItems: [PrintInput]? {
        get { if case .items(let items)? = content { items } else { nil } }
        set { content = newValue.map { .items($0) } }
    }

    public var printingItem: PrintInput? {
        get { printingItems?.count == 1 ? printingItems?.first : nil }
        set { printingItems = newValue.map { [$0] } }
    }

    public var printFormatter: PrintFormatter? {
        get { if case .formatter(let f)? = content { f } else { nil } }
        set { content = newValue.map { .formatter($0) } }
    }

    public var printPageRenderer: PrintPageRenderer? {
        get { if case .renderer(let r)? = content { r } else { nil } }
        set { content = newValue.map { .renderer($0) } }
    }

    /// Writes the job as one PDF at `path`, replaced whole or not at all.
    @discardableResult
    public func write(to path: String) throws -> JobReport {
        try render(to: .file(path), info: printInfo ?? PrintInfo(), printer: nil)
    }

    /// Sends the job to `printer` (CUPS's default for nil) and follows it to its end;
    /// `completion` gets true when it completed, or false and why (`PrintError.Code.jobFailed`,
    /// `.cancelled`, `.unsupportedByPrinter`, `.notAvailable` …). Built on `print(to:) async`.
    public func print(to printer: String? = nil, completion: @escaping @Sendable (Bool, PrintError?) -> Void) {
        Task {
            do {
                _ = try await print(to: printer)
                completion(true, nil)
            } catch let e as PrintError {
                completion(false, e)
            } catch {
                completion(false, PrintError(.jobFailed, "\(error)"))
            }
        }
    }

    /// Sends the job to `printer` (CUPS's default for nil), follows it through its status
    /// updates (`jobStatus`, the delegate) and returns its final status once it completed.
    ///
    /// Throws `PrintError` when it cannot be sent, or ends cancelled (`.cancelled`) or aborted
    /// (`.jobFailed`). Cancelling the awaiting task stops the wait with `CancellationError` and
    /// leaves the job printing: `submittedJob?.cancel()` cancels it.
    @discardableResult
    public func print(to printer: String? = nil) async throws -> JobStatus {
        let job = try await submit(to: printer)
        var final: JobStatus?
        for try await status in job.statusUpdates {
            jobStatus = status
            delegate?.printInteractionController(self, jobDidChange: status)
            final = status
        }
        guard let final else { throw CancellationError() }
        delegate?.printInteractionControllerDidFinishJob(self)
        if let error = Self.error(for: final) { throw error }
        return final
    }

    /// Converts the job and sends it to `printer` (CUPS's default for nil); returns as soon as
    /// the server has it, for a caller that follows `statusUpdates` itself. The conversion runs
    /// on a thread of its own. A task cancelled before the job is sent sends nothing
    /// (`CancellationError`); once sent, the job is returned, for `cancel()` to stop it.
    public func submit(to printer: String? = nil) async throws -> SubmittedJob {
        try await BlockingCall.run { [self] isCancelled in try send(to: printer, unless: isCancelled) }
    }

    /// Sends the job and waits until it is final; returns its last status.
    public func printAndWait(to printer: String? = nil) throws -> JobStatus {
        let job = try send(to: printer)
        let final = try PrintCenter.wait(forJob: job.id) { status in
            jobStatus = status
            delegate?.printInteractionController(self, jobDidChange: status)
        }
        jobStatus = final
        delegate?.printInteractionControllerDidFinishJob(self)
        return final
    }

    /// Converts the job and sends it; `cancelled` is asked before the conversion and again
    /// before anything is sent.
    private func send(to printer: String?, unless cancelled: () -> Bool = { false }) throws -> SubmittedJob {
        if cancelled() { throw CancellationError() }
        let delivery = try PrinterDelivery(printer: printer ?? printInfo?.printerID)
        var info = printInfo ?? PrintInfo()
        info.printerID = delivery.printer
        delegate?.printInteractionControllerWillStartJob(self)
        let title = info.jobName ?? defaultTitle
        let job = try delivery.send(title: title, info: info) {
            let report = try render(to: $0, info: $1, printer: delivery)
            if cancelled() { throw CancellationError() }
            return report
        }
        submittedJob = job
        return job
    }

    private var defaultTitle: String {
        switch content {
        case .items(let items)?: items.first?.displayName ?? "swiftprint"
        default: "swiftprint"
        }
    }

    private func render(to destination: OutputDestination, info: PrintInfo, printer: PrinterDelivery?) throws -> JobReport {
        guard let content else {
            throw PrintError(.noContent, "nothing to print: set printingItems, printFormatter or printPageRenderer")
        }
        var settings = JobSettings()
        settings.info = info
        printer?.capabilities.applyPrinterFacts(to: &settings)
        if let chosen = delegate?.printInteractionController(self, choosePaper: printer?.papers ?? []) { settings.info.media = chosen.media }
        if let printer, let roll = printer.rollPaper, let delegate,
           let length = delegate.printInteractionController(self, cutLengthFor: roll) {
            settings.info.media = printer.cut(roll, at: length).media
            settings.info.orientation = .portrait
            // Laid out on the printable area the delegate was given, as UIKit does: none of the
            // half-inch page margins a sheet gets, which would take a third of a receipt's width.
            settings.margins = .zero
        }
        switch content {
        case .items(let items):
            let dispatcher = Dispatcher.standard
            return try DocumentConversion(settings: settings, dispatcher: dispatcher).run(items, to: destination)
        case .formatter(let formatter):
            let renderer = PrintPageRenderer()
            renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
            return try PrintJob(renderer: renderer, info: settings.info, paper: settings.paper()).writePDF(to: destination)
        case .renderer(let renderer):
            return try PrintJob(renderer: renderer, info: settings.info, paper: settings.paper()).writePDF(to: destination)
        }
    }

    private static func error(for status: JobStatus) -> PrintError? {
        let why = ([status.message].compactMap { $0 } + status.stateReasons).joined(separator: "; ")
        switch status.state {
        case .completed: return nil
        case .cancelled: return PrintError(.cancelled, "job \(status.id) was cancelled" + (why.isEmpty ? "" : ": \(why)"))
        default: return PrintError(.jobFailed, "job \(status.id) was \(status.state.rawValue)" + (why.isEmpty ? "" : ": \(why)"))
        }
    }
}
