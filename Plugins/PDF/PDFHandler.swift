import Foundation
import Logging
import HandlerSupport

/// PDF documents: every page reaches the output as the objects it is made of (text stays text,
/// fonts and images as they were), placed by reference through the object-level assembler,
/// never redrawn.
///
/// Each page keeps its own size and rotation unless the job names a paper (`--media`) or a
/// scaling (`print-scaling`); then pages are scaled onto the job's paper, and a page whose
/// orientation differs turns the sheet (when the job sets no orientation) rather than the page.
/// The orientation option never rotates a PDF's pages: they have an orientation of their own.
public struct PDFHandler: ContentHandler {
    public let name = "pdf"
    public let contentTypes = ["com.adobe.pdf"]

    public init() {}

    /// Reads `settings.placement`: the password (user or owner), the scaling, CUPS's percent
    /// of the printable area, and where a page sits when it does not fill the paper.
    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let formatter = try PDFPrintFormatter(input: input, password: settings.placement.password)
        formatter.apply(settings.placement, jobNamesPaper: settings.info.media != nil)
        return formatter
    }
}

/// Lays out the pages of a PDF: one formatter page per input page.
public final class PDFPrintFormatter: PlacedPagesFormatter {
    /// The PDF's own Title, from its information dictionary.
    public override var documentTitle: String? {
        document.info("Title").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static let logger = Logger(label: "swiftprint.pdf")

    /// Opens the PDF at `input` (a file; standard input is spooled by the caller), with a
    /// password when it is encrypted or forbids printing.
    public init(input: PrintInput, password: String? = nil) throws {
        let path = input.path
        try PDFFileCheck.check(path: path)
        let document: QPDFDocument
        do {
            document = try Self.open(path: path, password: password, name: input.displayName, logger: Self.logger)
        } catch var error as PrintError where error.code == .passwordRequired {
            error.option = PlacementOptions.password.name
            throw error
        }
        guard document.allowsPrinting else {
            throw PrintError(.printingNotAllowed, path: path, "the PDF's permissions forbid printing: give its owner password",
                             option: PlacementOptions.password.name)
        }
        guard document.pageCount > 0 else { throw PrintError(.noContent, path: path, "the PDF has no pages") }
        super.init(document: document)
    }

    /// Opens the PDF with qpdf, which repairs what damage it can (and finds the pages of a file
    /// whose page tree is lost). A damaged file qpdf cannot
    /// rebuild into pages is read again by poppler (`PDFRepair`), and its rewrite is opened
    /// instead, with a warning; only a file neither can read is an error. (Drawing the pages
    /// through poppler would add nothing: a file both fail on, poppler cannot open either.)
    static func open(path: String, password: String?, name: String, logger: Logger) throws -> QPDFDocument {
        let qpdfFailure: PrintError
        do {
            let document = try QPDFDocument(path: path, password: password)
            guard document.repairs > 0, document.pageCount == 0, !document.isEncrypted else {
                if document.recoveredPages > 0 {
                    logger.warning("\(name): the PDF is damaged and its page tree is lost; printing the \(document.recoveredPages) pages found in it, in the order they stand in the file")
                } else if document.repairs > 0 {
                    logger.warning("\(name): the PDF is damaged; printing what qpdf repaired (\(document.repairs) problems)")
                }
                return document
            }
            qpdfFailure = PrintError(.invalidInput, path: path, "qpdf's rebuilt file has no pages")
        } catch let error as PrintError where error.code == .invalidInput {
            qpdfFailure = error
        }
        guard let (fd, scratch) = TemporaryFiles.make(in: TemporaryFiles.folder, prefix: "swiftprint-repair-") else {
            throw PrintError.system(.outputFailed, path: TemporaryFiles.folder, "cannot create a temporary file", errno: errno)
        }
        close(fd)
        // qpdf keeps the file open as it reads it: once open, its name can go.
        defer { unlink(scratch) }
        do {
            let pages = try PDFRepair.rewrite(path, to: scratch)
            let document = try QPDFDocument(path: scratch, reportedPath: path)
            guard document.pageCount > 0 else { throw PrintError(.invalidInput, path: path, "poppler's rewrite has no pages") }
            logger.warning("\(name): the PDF is damaged and \(qpdfFailure.message); printing the \(pages) pages poppler recovered")
            return document
        } catch let error as PrintError {
            throw PrintError(.invalidInput, path: path, "the PDF is damaged beyond repair: \(qpdfFailure.message); \(error.message)")
        }
    }
}

/// Checks that fail before qpdf reads a file: a missing header or a cut-off end. qpdf would
/// "repair" a truncated file into fewer pages; a truncated PDF must be an error instead.
enum PDFFileCheck {
    static func check(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot open the file", errno: errno)
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1024)) ?? Data()
        guard head.range(of: Data("%PDF-".utf8)) != nil else {
            throw PrintError(.invalidInput, path: path, "not a PDF (no %PDF- header)")
        }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 1024 ? size - 1024 : 0)
        let tail = (try? handle.readToEnd()) ?? Data()
        guard tail.range(of: Data("%%EOF".utf8)) != nil else {
            throw PrintError(.invalidInput, path: path, "the PDF is truncated (no end-of-file marker)")
        }
    }
}
