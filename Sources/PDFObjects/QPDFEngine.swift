import CQPDF
import Foundation
import PrintModel
import PrintSupport

/// libqpdf's side of the assembler, found on first use. It lives in a shared library of its own,
/// libSwiftPrintQPDF.so (the SwiftPrintQPDF product), so that jobs that only draw — plain text —
/// never map libqpdf and its dependencies (gnutls, nettle, gmp, p11-kit, libjpeg …), about 4 ms of
/// every run's start-up.
package enum QPDFEngine {
    package static let libraryName = "libSwiftPrintQPDF.so"

    /// The engine's functions, or why there are none; looked up once per process.
    private static let loaded: Result<SPQFunctions, PrintError> = load()

    package static func functions() throws -> SPQFunctions { try loaded.get() }

    /// Where the library may be (see `Installation.engineCandidates`); `$SWIFTPRINT_QPDF_LIBRARY` names it.
    static var candidates: [String] { Installation.engineCandidates(libraryName, override: "SWIFTPRINT_QPDF_LIBRARY") }

    private static func load() -> Result<SPQFunctions, PrintError> {
        // A program linked with the SwiftPrintQPDF product already has the engine.
        var error: UnsafeMutablePointer<CChar>?
        if let table = spq_functions_load(nil, &error) { return .success(table.pointee) }
        free(error)
        var reasons: [String] = []
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            error = nil
            if let table = spq_functions_load(path, &error) { return .success(table.pointee) }
            reasons.append("\(path): \(QPDFDocument.take(error))")
        }
        let why = reasons.isEmpty ? "it is not installed beside swiftprint (or set SWIFTPRINT_QPDF_LIBRARY)" : reasons.joined(separator: "; ")
        return .failure(PrintError(.notAvailable, "cannot assemble PDFs without \(libraryName): \(why)"))
    }
}

/// The object-level assembler's engine, for programs that know early that they will place pages
/// or images.
public enum AssemblyEngine {
    /// Starts loading the engine (libSwiftPrintQPDF.so, libqpdf and their libraries, ~4 ms) on
    /// another thread; the first job that assembles waits for it. A failure to load is reported
    /// by that job, as without this call.
    public static func startLoadingInBackground() {
        Thread.detachNewThread { _ = try? QPDFEngine.functions() }
    }
}
