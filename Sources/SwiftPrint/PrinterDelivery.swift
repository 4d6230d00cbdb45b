import Foundation

/// A job sent to a printer: the same pipeline as `convert` writes a private PDF (or PWG or
/// Apple raster, for a printer that takes no PDF), which libcups then sends. The printer is asked what it supports first, so that a job it cannot print
/// fails before anything is drawn or sent.
public struct PrinterDelivery: Sendable {
    /// The destination's name, as CUPS knows it.
    public let printer: String
    public let capabilities: PrinterCapabilities

    /// Looks `printer` up (the default destination for nil) and reads its capabilities.
    public init(printer: String?) throws {
        (self.printer, self.capabilities) = try JobSubmission.capabilities(of: printer)
    }

    /// For tests and callers that already know the printer.
    public init(printer: String, capabilities: PrinterCapabilities) {
        self.printer = printer; self.capabilities = capabilities
    }

    /// The printer's default media, the "queue's default" in the precedence rule.
    public var defaultMedia: MediaSize? { capabilities.defaultMedia.flatMap { MediaCatalogue.shared.media(named: $0) } }

    /// The sizes the printer takes, as papers for a paper chooser, each with the printable area
    /// the printer gives it.
    public var papers: [PrintPaper] {
        capabilities.media.compactMap { MediaCatalogue.shared.media(named: $0) }.map {
            PrintPaper(media: $0, margins: capabilities.margins.edges(for: $0.pwgName, borderless: false))
        }
    }

    /// For a roll-fed printer, its roll as a paper of the longest length it cuts: what a
    /// delegate is given to choose a cut length (UIKit's `cutLengthFor:` gets "the maximum
    /// physical and printable areas"). The roll is as wide as the paper loaded, when the printer
    /// says which and it fits, else as wide as the printer takes. Nil for sheet-fed printers.
    public var rollPaper: PrintPaper? {
        guard capabilities.isRollFed, let range = capabilities.customSizes else { return nil }
        let loaded = (capabilities.readyMedia + [capabilities.defaultMedia].compactMap { $0 })
            .compactMap { MediaSize.dimensions(of: $0)?.width }
            .first { $0 >= range.minimum.width - 0.5 && $0 <= range.maximum.width + 0.5 }
        return paper(cutFrom: range, width: loaded ?? range.maximum.width, length: range.maximum.height)
    }

    /// The roll `rollPaper` cut at `length` points, held within the lengths the printer cuts.
    public func cut(_ roll: PrintPaper, at length: Double) -> PrintPaper {
        guard let range = capabilities.customSizes else { return roll }
        return paper(cutFrom: range, width: roll.paperSize.width, length: range.clampedLength(length))
    }

    private func paper(cutFrom range: MediaSizeRange, width: Double, length: Double) -> PrintPaper {
        let media = MediaSize.custom(width: width, length: length)
        return PrintPaper(media: media, margins: capabilities.margins.edges(for: media.pwgName, borderless: false))
    }

    /// The IPP options a job set up by `info`, laid out on `paper`, asks the printer for. Pages,
    /// n-up and grey are already in the PDF; what only the printer can do is asked of it: both
    /// sides (`sides`; one side for a photo unless asked, whatever the printer's default), the
    /// sheet (`media`), and monochrome when the job is grey. (Copies are `copyOptions`.)
    public static func jobOptions(info: PrintInfo, paper: PrintPaper?) -> [(String, String)] {
        var options: [(String, String)] = []
        let isPhoto = info.outputType == .photo || info.outputType == .photoGrayscale
        if let duplex = info.duplex ?? (isPhoto ? PrintInfo.Duplex.none : nil) { options.append(("sides", duplex.ippSides)) }
        if let paper { options.append(("media", paper.media.pwgName)) }
        switch info.outputType {
        case .grayscale?, .photoGrayscale?: options.append(("print-color-mode", "monochrome"))
        case .general?, .photo?: options.append(("print-color-mode", "color"))
        case nil: break
        }
        return options
    }

    /// Throws, listing every problem, when the printer lacks what `options` ask for.
    public func check(_ options: [(String, String)]) throws {
        let problems = capabilities.problems(with: options, printer: printer)
        if !problems.isEmpty { throw PrintError(.unsupportedByPrinter, problems.joined(separator: "; ")) }
    }

    /// Copies, when the printer makes that many itself: one set is drawn and sent, and the
    /// printer (or its queue's filters) makes the others, collated or not, each copy starting
    /// on a sheet of its own. Else (more than it takes, or it does not say) nil: the PDF holds
    /// every copy, as `convert` writes it.
    public func copyOptions(info: PrintInfo) -> [(String, String)]? {
        guard let copies = info.copies, copies > 1, let most = capabilities.maximumCopies, copies <= most else { return nil }
        let handling = info.sheets.collate ?? true ? "separate-documents-collated-copies" : "separate-documents-uncollated-copies"
        return [("copies", String(copies)), ("multiple-document-handling", handling)]
    }

    /// Checks `info` against the printer, lets `render` write the job's PDF into a private
    /// folder (with the settings it is given: one copy when the printer makes the copies),
    /// checks the paper it chose, and sends it as one job titled `title`.
    /// The job goes as PDF, PWG raster or Apple raster, as `outputSettings(for:)` decides.
    public func send(title: String, info: PrintInfo, render: (OutputDestination, PrintInfo) throws -> JobReport) throws -> SubmittedJob {
        try check(Self.jobOptions(info: info, paper: nil))
        let info = try outputSettings(for: info)
        let format = info.outputFormat ?? .pdf
        let copies = copyOptions(info: info)
        var drawn = info
        if copies != nil { drawn.copies = 1 }
        let folder = try TemporaryFiles.makePrivateDirectory(prefix: "swiftprint-job-")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let document = folder + (format == .pdf ? "/job.pdf" : format == .pwgRaster ? "/job.pwg" : "/job.urf")
        let report = try render(.file(document), drawn)
        let options = Self.jobOptions(info: info, paper: report.paper) + (copies ?? [])
        try check(options)
        let id = try JobSubmission.submit([JobDocument(path: document, name: title, format: format.mimeType)], to: printer, title: title,
                                          options: options)
        return SubmittedJob(id: id, printer: printer, pages: report.sheetsWritten, printerCopies: copies == nil ? 1 : info.copies ?? 1)
    }
}

/// A job the printer's server accepted.
public struct SubmittedJob: Hashable, Sendable {
    public let id: Int
    public let printer: String
    /// Sides (impressions) in the PDF sent.
    public let pages: Int
    /// Copies the printer makes of that PDF (1 when the copies are in it).
    public let printerCopies: Int
    /// Sides the printer prints in all: what "page 2 of 5" counts to.
    public var impressions: Int { pages * printerCopies }

    public init(id: Int, printer: String, pages: Int, printerCopies: Int = 1) {
        self.id = id; self.printer = printer; self.pages = pages; self.printerCopies = printerCopies
    }

    /// The job's status as it changes, up to its final one ("page 2 of 5" is
    /// `impressionsCompleted` of `impressions`).
    public var statusUpdates: JobStatusUpdates { PrintCenter.shared.statusUpdates(ofJob: id) }

    /// Cancels the job on its server (the printer stops it, or it never starts).
    public func cancel() async throws { try await PrintCenter.shared.cancel(job: id) }
}
