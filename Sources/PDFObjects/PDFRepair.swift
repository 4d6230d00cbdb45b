import CPDFRepair
import Foundation
import PrintModel
import PrintSupport

/// The second repair of a damaged PDF: poppler reads a file whose cross-reference table qpdf
/// could not rebuild into pages, and writes its objects back into a well-formed file that qpdf
/// then places as any other (`CPDFRepair.h` says where the two differ). It lives in
/// libSwiftPrintPDFRepair.so, opened by the first file that needs it: no other job loads poppler.
package enum PDFRepair {
    package static let libraryName = "libSwiftPrintPDFRepair.so"

    private static let loaded = entry("repair PDFs") { spr_rewrite_load($0, $1) }

    /// An entry point of the engine, found by `load` in the first candidate library that has it;
    /// the error says what cannot be done (`purpose`) without it, and why.
    static func entry<Entry>(_ purpose: String,
                             _ load: (String, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Entry?) -> Result<Entry, PrintError> {
        var reasons: [String] = []
        for path in Installation.engineCandidates(libraryName, override: "SWIFTPRINT_PDF_REPAIR_LIBRARY")
        where FileManager.default.fileExists(atPath: path) {
            var error: UnsafeMutablePointer<CChar>?
            if let entry = load(path, &error) { return .success(entry) }
            reasons.append("\(path): \(QPDFDocument.take(error))")
        }
        let why = reasons.isEmpty ? "it is not installed beside swiftprint (or set SWIFTPRINT_PDF_REPAIR_LIBRARY)" : reasons.joined(separator: "; ")
        return .failure(PrintError(.notAvailable, "cannot \(purpose) without \(libraryName): \(why)"))
    }

    /// Rewrites the PDF at `input` as poppler reads it into a new file at `output`; returns the
    /// pages poppler found. Throws with poppler's reason when it cannot read or write it.
    package static func rewrite(_ input: String, to output: String) throws -> Int {
        let rewrite = try loaded.get()
        var pages: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        guard rewrite(input, output, &pages, &error) == 0 else {
            throw PrintError(.invalidInput, path: input, QPDFDocument.take(error))
        }
        return Int(pages)
    }
}
