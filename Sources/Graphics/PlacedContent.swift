import Foundation
import PDFObjects

/// Content that reaches the output as the PDF objects it already is — a page of a PDF, a JPEG
/// stored byte for byte — placed on a page by reference and never redrawn. Draw it with
/// `GraphicsContext.place(_:in:)`; a formatter or renderer that does says so with
/// `placesContent`, so that the job assembles its output at the PDF-object level.
public final class PlacedContent {
    /// Its natural size in points: a PDF page as a viewer shows it, an image at its resolution.
    public let naturalSize: CGSize

    package enum Source {
        /// Page `index` of an open PDF.
        case pdfPage(QPDFDocument, index: Int, geometry: PDFPageGeometry)
        /// An object the writer asks to add itself to the output (an image).
        case object(any PlaceableObject)
    }

    package let source: Source
    /// The box the object spans in its own space, after `objectToBox`: what `place` maps onto
    /// the target rect (an image's unit square; a PDF page's displayed size).
    package let objectBox: CGSize
    /// From the object's own space to that box, in PDF orientation (origin bottom-left).
    package let objectToBox: PDFMatrix

    /// Page `index` of `document`.
    package init(page index: Int, of document: QPDFDocument) throws {
        let geometry = try document.geometry(ofPage: index)
        source = .pdfPage(document, index: index, geometry: geometry)
        naturalSize = geometry.displayedSize
        objectBox = geometry.displayedSize
        objectToBox = geometry.formToDisplayed
    }

    /// An image object (drawn in PDF's unit square) of `naturalSize` points, upright after
    /// `orientation` (a matrix on the unit square: EXIF's turns and mirrors).
    package init(image: any PlaceableObject, naturalSize: CGSize, orientation: PDFMatrix = .identity) {
        source = .object(image)
        self.naturalSize = naturalSize
        objectBox = CGSize(width: 1, height: 1)
        objectToBox = orientation
    }

    /// Identifies the object in the output, so that copies and repeats share one object.
    package var key: Key {
        switch source {
        case .pdfPage(let doc, let index, _): return Key(source: ObjectIdentifier(doc), page: index)
        case .object(let object): return Key(source: ObjectIdentifier(object), page: 0)
        }
    }

    /// A page of one source (a PDF, or an image object with its one "page").
    package struct Key: Hashable {
        let source: ObjectIdentifier
        let page: Int
    }
}

/// An object that writes itself into the output document when a sheet shows it.
package protocol PlaceableObject: AnyObject {
    /// Adds the object to `document` and returns its object number.
    func addObject(to document: QPDFDocument) throws -> Int64
}

/// A placement recorded on a sheet: what, and the matrix from its space to the sheet's PDF space.
package struct Placement {
    package let content: PlacedContent
    package let matrix: PDFMatrix
    /// The corners of the area it is clipped to, in the sheet's PDF space, if any.
    package let clip: [CGPoint]?
}
