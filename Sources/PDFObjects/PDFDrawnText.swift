import CPDFRepair
import Foundation
import PrintModel
import PrintSupport

/// A PDF's text as its pages draw it: each page's characters in the order its content draws
/// them, with their boxes. poppler-glib reads text in its own reading order, which takes the
/// columns of a table or a line of preformatted text apart; the markup page map needs the order
/// of the document the print came from. Read by poppler's core, in libSwiftPrintPDFRepair.so
/// (`PDFRepair`), opened by the first job that asks.
package enum PDFDrawnText {
    private static let loaded = PDFRepair.entry("read a PDF's text in drawing order") { spr_drawn_text_load($0, $1) }

    /// Each page's text and its characters' boxes (one a Unicode scalar, in points from the
    /// page's top-left corner).
    package static func pages(of path: String) throws(PrintError) -> [(text: String, boxes: [CGRect])] {
        let read = try loaded.get()
        var text: UnsafeMutablePointer<CChar>?, boxes: UnsafeMutablePointer<Double>?, starts: UnsafeMutablePointer<Int32>?
        var count: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        guard read(path, &text, &boxes, &starts, &count, &error) == 0, let text, let boxes, let starts else {
            throw PrintError(.renderingFailed, path: path, QPDFDocument.take(error))
        }
        defer { free(text); free(boxes); free(starts) }
        let scalars = Array(String(cString: text).unicodeScalars)
        return (0..<Int(count)).map { page in
            let range = Int(starts[page])..<min(Int(starts[page + 1]), scalars.count)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return (String(view), range.map { i in
                CGRect(x: boxes[4 * i], y: boxes[4 * i + 1], width: boxes[4 * i + 2] - boxes[4 * i], height: boxes[4 * i + 3] - boxes[4 * i + 1])
            })
        }
    }
}
