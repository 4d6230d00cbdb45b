import CQPDF
import Foundation
import PrintModel
import PrintSupport

/// One PDF document held by libqpdf: an input whose pages are placed into the output, or the
/// output being assembled. The one owner of its `SPQDocument`.
package final class QPDFDocument {
    private let engine: SPQFunctions
    private let handle: OpaquePointer
    /// The file it was read from, for messages.
    package let path: String?
    /// How many problems qpdf repaired while reading it (a rebuilt cross-reference table …).
    package private(set) var repairs = 0
    /// The suppliers of streams read when it is written, kept alive until then.
    private var suppliers: [StreamSupplier] = []
    /// Where its images' compressed colour and alpha samples wait until it is written; made
    /// with the first image (with alpha).
    private var colorSpool: ImageSpool?
    private var alphaSpool: ImageSpool?

    /// Reads the PDF at `path`, named `reportedPath` in messages (a repaired copy is named as
    /// the file it was made from).
    package init(path: String, password: String? = nil, reportedPath: String? = nil) throws {
        engine = try QPDFEngine.functions()
        var repairs: Int32 = 0, kind: Int32 = 0
        var error: UnsafeMutablePointer<CChar>?
        guard let h = engine.document_open!(path, password, &repairs, &kind, &error) else {
            let message = Self.take(error)
            switch Int(kind) {
            case Int(SPQ_ERROR_PASSWORD):
                throw PrintError(.passwordRequired, path: path,
                                 password == nil ? "the PDF is encrypted: give its password" : "the password is not right for this PDF")
            case Int(SPQ_ERROR_DAMAGED):
                throw PrintError(.invalidInput, path: path, "qpdf cannot rebuild it (\(message))")
            default:
                throw PrintError(.invalidInput, path: path, "cannot read the PDF: \(message)")
            }
        }
        handle = h
        self.path = reportedPath ?? path
        self.repairs = Int(repairs)
    }

    /// A new, empty output document.
    package init() throws {
        engine = try QPDFEngine.functions()
        var error: UnsafeMutablePointer<CChar>?
        guard let h = engine.document_create!(&error) else {
            throw PrintError(.renderingFailed, "cannot start the PDF: \(Self.take(error))")
        }
        handle = h
        path = nil
    }

    deinit { engine.document_free!(handle) }

    package var pageCount: Int { Int(engine.document_page_count!(handle, nil)) }
    package var isEncrypted: Bool { engine.document_is_encrypted!(handle) != 0 }
    /// Pages found outside a lost page tree (in the order they stand in the file); 0 when the
    /// document's own tree gave them.
    package var recoveredPages: Int { Int(engine.document_recovered_pages!(handle)) }
    package var allowsPrinting: Bool { engine.document_allows_printing!(handle) != 0 }

    /// Page `index`'s boxes and rotation.
    package func geometry(ofPage index: Int) throws -> PDFPageGeometry {
        var g = SPQPageGeometry()
        try check { engine.page_geometry!(handle, Int32(index), &g, &$0) }
        func rect(_ b: (Double, Double, Double, Double)) -> CGRect {
            CGRect(x: b.0, y: b.1, width: b.2 - b.0, height: b.3 - b.1)
        }
        return PDFPageGeometry(mediaBox: rect(g.mediaBox), cropBox: rect(g.cropBox),
                               rotation: Int(g.rotate), userUnit: g.userUnit)
    }

    /// The pixels of the largest image page `index` draws (through forms and patterns too),
    /// as the images declare them: what rendering the page would decode.
    package func largestImagePixels(onPage index: Int) throws -> Int {
        var pixels: Int64 = 0
        try check { pixels = engine.page_largest_image!(handle, Int32(index), &$0); return pixels < 0 ? -1 : 0 }
        return Int(pixels)
    }

    /// What `subsetEmbeddedFonts` did.
    package struct FontSubsetting: Equatable {
        /// Font programs cut down.
        package var fonts: Int
        /// Their uncompressed sizes before and after.
        package var bytesBefore: Int
        package var bytesAfter: Int
        /// Why every font was left whole (content the scan could not follow), if it was.
        package var keptWhole: String?
    }

    /// Cuts this input's embedded TrueType fonts down to the glyphs its pages show (glyph
    /// numbers kept, so the content is untouched). For producers that embed whole fonts, as
    /// WebKit does; call it before placing any page.
    @discardableResult
    package func subsetEmbeddedFonts() throws -> FontSubsetting {
        var before: Int64 = 0, after: Int64 = 0
        var error: UnsafeMutablePointer<CChar>?
        let fonts = engine.document_subset_fonts!(handle, &before, &after, &error)
        guard fonts >= 0 else {
            throw PrintError(.renderingFailed, path: path, "cannot subset the embedded fonts: \(Self.take(error))")
        }
        return FontSubsetting(fonts: Int(fonts), bytesBefore: Int(before), bytesAfter: Int(after),
                              keptWhole: error.map { _ in Self.take(error) })
    }

    // MARK: Building an output

    /// Appends page `index` of `source` as it is; with `intent`, drawn in that rendering intent
    /// wherever it names none itself. `source` must stay alive until `write`.
    package func appendCopy(ofPage index: Int, from source: QPDFDocument, intent: RenderingIntent? = nil) throws {
        try check { error in Self.withName(intent) { engine.copy_page!(handle, source.handle, Int32(index), $0, &error) } }
    }

    /// Page `index` of `source` as a form XObject of this document; returns its object number.
    package func formXObject(fromPage index: Int, of source: QPDFDocument) throws -> Int64 {
        try object { engine.form_from_page!(handle, source.handle, Int32(index), &$0) }
    }

    /// A JPEG of `length` bytes stored byte for byte, its bytes asked of `supplier` only when
    /// this document is written (which fails if it gives another number of them); returns its
    /// object number.
    package func addJPEG(info: ImageObjectInfo, length: Int64, supplier: StreamSupplier) throws -> Int64 {
        suppliers.append(supplier)
        return try info.withC { c in
            try object { e in engine.add_jpeg!(handle, &c, length, StreamSupplier.provide, Unmanaged.passUnretained(supplier).toOpaque(), &e) }
        }
    }

    /// An image whose samples `fill` writes row by row; returns its object number. Its
    /// compressed samples (colour, and alpha) go to the document's spools, temporary files, and
    /// are read back when the document is written: a job of many images holds none of them in
    /// memory.
    package func addImage(info: ImageObjectInfo, fill: (ImageSampleSink) throws -> Void) throws -> Int64 {
        if colorSpool == nil { colorSpool = try ImageSpool() }
        if info.alphaBits != nil, alphaSpool == nil { alphaSpool = try ImageSpool() }
        let color = ImageSpool.Slice(spool: colorSpool!)
        let alpha = info.alphaBits == nil ? nil : ImageSpool.Slice(spool: alphaSpool!)
        var spools = SPQImageSpools(color: ImageSpool.append, colorContext: Unmanaged.passUnretained(color.spool).toOpaque(),
                                    alpha: alpha == nil ? nil : ImageSpool.append,
                                    alphaContext: alpha.map { Unmanaged.passUnretained($0.spool).toOpaque() })
        var error: UnsafeMutablePointer<CChar>?
        let writer: OpaquePointer? = info.withC { c in engine.image_begin!(handle, &c, &spools, &error) }
        guard let writer else { throw failure(Self.take(error)) }
        let sink = ImageSampleSink(engine: engine, writer: writer, spools: [color.spool] + (alpha.map { [$0.spool] } ?? []))
        do {
            try fill(sink)
        } catch {
            engine.image_abandon!(writer)
            throw error
        }
        let colorSupplier = StreamSupplier { write in try color.copy(to: write) }
        let alphaSupplier = alpha.map { slice in StreamSupplier { write in try slice.copy(to: write) } }
        suppliers += [colorSupplier] + (alphaSupplier.map { [$0] } ?? [])
        var given = SPQImageSuppliers(color: StreamSupplier.provide, colorContext: Unmanaged.passUnretained(colorSupplier).toOpaque(),
                                      alpha: alphaSupplier == nil ? nil : StreamSupplier.provide,
                                      alphaContext: alphaSupplier.map { Unmanaged.passUnretained($0).toOpaque() })
        do {
            let id = try object { engine.image_end!(writer, &given, &$0) }
            color.finish()
            alpha?.finish()
            return id
        } catch {
            throw sink.spoolFailure ?? error
        }
    }

    /// Appends a page of `size` showing `placements` in order, later ones on top; with
    /// `intent`, in that rendering intent wherever they name none themselves.
    package func appendSheet(size: CGSize, rotation: Int = 0, placements: [(object: Int64, transform: PDFMatrix, clip: [CGPoint]?)],
                             grayscale: Bool = false, intent: RenderingIntent? = nil) throws {
        let c = placements.map { p in
            let q = p.clip ?? [.zero, .zero, .zero, .zero]
            return SPQPlacement(object: p.object, matrix: p.transform.tuple, hasClip: p.clip == nil ? 0 : 1,
                                clip: (q[0].x, q[0].y, q[1].x, q[1].y, q[2].x, q[2].y, q[3].x, q[3].y))
        }
        try check { error in
            Self.withName(intent) {
                engine.add_sheet!(handle, size.width, size.height, Int32(rotation), c, Int32(c.count), grayscale ? 1 : 0, $0, &error)
            }
        }
    }

    /// A form XObject of `size` drawn by `operators` (PDF content syntax, no resources).
    package func addDrawing(size: CGSize, operators: String) throws -> Int64 {
        try object { error in
            operators.withCString { engine.add_drawing!(handle, size.width, size.height, $0, strlen($0), &error) }
        }
    }

    /// Title, Creator and the dates (SOURCE_DATE_EPOCH's, for reproducible output).
    package func stamp(_ metadata: DocumentMetadata) throws {
        if let title = metadata.title { try setInfo("Title", title) }
        try setInfo("Creator", metadata.creator)
        let date = DocumentMetadata.pdfDate(metadata.stampedDate)
        try setInfo("CreationDate", date)
        try setInfo("ModDate", date)
    }

    /// Gives the document an outline (bookmarks): entries in order, each under the last one
    /// before it of a lower level.
    package func setOutline(_ entries: [OutlineEntry]) throws {
        guard !entries.isEmpty else { return }
        let titles = entries.map { strdup($0.title) }
        defer { titles.forEach { free($0) } }
        var items = entries.enumerated().map { i, e in
            SPQOutlineItem(title: UnsafePointer(titles[i]), level: Int32(e.level), page: Int32(e.page), top: e.top ?? -1)
        }
        try check { engine.set_outline!(handle, &items, Int32(items.count), &$0) }
    }

    /// Adds a link over `box` (PDF space) of page `page` to `uri`, or to page `destinationPage`
    /// at `destinationTop` (points from its bottom; its top when nil).
    package func addLink(page: Int, box: CGRect, uri: String?, destinationPage: Int = -1, destinationTop: Double? = nil) throws {
        try check { engine.add_link!(handle, Int32(page), box.minX, box.minY, box.maxX, box.maxY, uri, Int32(destinationPage),
                                     destinationTop ?? -1, &$0) }
    }

    /// An entry of the document's information dictionary (`Title`), when it holds text.
    package func info(_ key: String) -> String? {
        guard let value = engine.get_info!(handle, key) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    /// Sets a document information entry (Title, Creator, CreationDate …).
    package func setInfo(_ key: String, _ value: String) throws {
        try check { engine.set_info!(handle, key, value, &$0) }
    }

    /// Writes the document to `output`, with an /ID made from its content (reproducible).
    package func write(to output: OutputFile) throws {
        let box = Unmanaged.passUnretained(output)
        do {
            try check { error in
                engine.document_write!(handle, { context, data, length in
                    let out = Unmanaged<OutputFile>.fromOpaque(context!).takeUnretainedValue()
                    out.write(UnsafeRawBufferPointer(start: data, count: length))
                    return out.error == nil ? 0 : 1
                }, box.toOpaque(), &error)
            }
        } catch {
            // A supplier that could not read its stream again says why, naming its file.
            if let failure = suppliers.lazy.compactMap(\.failure).first { throw failure }
            throw error
        }
        if let e = output.error { throw e }
    }

    // MARK: Errors

    /// `intent`'s PDF name as a C string for `body`, or NULL when it has none.
    private static func withName<T>(_ intent: RenderingIntent?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let name = intent?.pdfName else { return body(nil) }
        return name.withCString(body)
    }

    private func check(_ body: (inout UnsafeMutablePointer<CChar>?) -> Int32) throws {
        var error: UnsafeMutablePointer<CChar>?
        if body(&error) != 0 { throw failure(Self.take(error)) }
    }

    private func object(_ body: (inout UnsafeMutablePointer<CChar>?) -> Int64) throws -> Int64 {
        var error: UnsafeMutablePointer<CChar>?
        let id = body(&error)
        if id < 0 { throw failure(Self.take(error)) }
        return id
    }

    private func failure(_ message: String) -> PrintError {
        path.map { PrintError(.invalidInput, path: $0, "cannot read the PDF: \(message)") }
            ?? PrintError(.renderingFailed, "cannot assemble the PDF: \(message)")
    }

    static func take(_ error: UnsafeMutablePointer<CChar>?) -> String {
        guard let error else { return "unknown error" }
        defer { free(error) }
        return String(cString: error)
    }
}

/// Where a PDF page sits in its own coordinates.
package struct PDFPageGeometry: Hashable, Sendable {
    package var mediaBox: CGRect
    package var cropBox: CGRect
    /// Clockwise quarter turns in degrees: 0, 90, 180, 270.
    package var rotation: Int
    package var userUnit: Double

    /// The page as a viewer shows it, in points: the crop box, turned and scaled.
    package var displayedSize: CGSize {
        let w = cropBox.width * userUnit, h = cropBox.height * userUnit
        return rotation % 180 == 0 ? CGSize(width: w, height: h) : CGSize(width: h, height: w)
    }

    /// From the page's form XObject space (its crop box) to the displayed page, in PDF
    /// orientation (origin bottom-left), points.
    package var formToDisplayed: PDFMatrix {
        let w = cropBox.width, h = cropBox.height
        let turn: PDFMatrix
        switch rotation {
        case 90: turn = PDFMatrix(a: 0, b: -1, c: 1, d: 0, e: 0, f: w)
        case 180: turn = PDFMatrix(a: -1, b: 0, c: 0, d: -1, e: w, f: h)
        case 270: turn = PDFMatrix(a: 0, b: 1, c: -1, d: 0, e: h, f: 0)
        default: turn = .identity
        }
        return PDFMatrix(translationX: -cropBox.minX, y: -cropBox.minY)
            .concatenating(turn)
            .concatenating(PDFMatrix(scaleX: userUnit, y: userUnit))
    }
}

/// An image object's description.
package struct ImageObjectInfo {
    package enum ColorModel: Int { case gray = 1, rgb = 3, cmyk = 4 }
    package var width: Int
    package var height: Int
    package var colorModel: ColorModel
    package var bitsPerComponent = 8
    package var iccProfile: Data?
    /// Adobe-style inverted CMYK (APP14): written with a Decode array so it prints positive.
    package var invertedCMYK = false
    /// Bits of an alpha channel written as a soft mask, or nil.
    package var alphaBits: Int?
    /// Viewers smooth it when they enlarge it.
    package var interpolate = false
    /// zlib's level, 1 (fastest) to 9; nil for the default.
    package var compressionLevel: Int?
    /// Each colour row is written after a PNG filter-type byte (PDF's Flate predictor 15).
    package var pngPredictor = false

    package init(width: Int, height: Int, colorModel: ColorModel, bitsPerComponent: Int = 8) {
        self.width = width; self.height = height; self.colorModel = colorModel
        self.bitsPerComponent = bitsPerComponent
    }

    func withC<T>(_ body: (inout SPQImageInfo) throws -> T) rethrows -> T {
        let icc = iccProfile ?? Data()
        return try icc.withUnsafeBytes { bytes in
            var c = SPQImageInfo(
                width: Int32(width), height: Int32(height), components: Int32(colorModel.rawValue),
                bitsPerComponent: Int32(bitsPerComponent),
                icc: iccProfile == nil ? nil : bytes.bindMemory(to: UInt8.self).baseAddress, iccLength: icc.count,
                invertCMYK: invertedCMYK ? 1 : 0, hasAlpha: alphaBits == nil ? 0 : 1,
                alphaBitsPerComponent: Int32(alphaBits ?? 0), interpolate: interpolate ? 1 : 0,
                compressionLevel: Int32(compressionLevel ?? 0), pngPredictor: pngPredictor ? 1 : 0)
            return try body(&c)
        }
    }
}

/// Takes an image's samples as they are decoded.
package struct ImageSampleSink {
    fileprivate let engine: SPQFunctions
    fileprivate let writer: OpaquePointer
    fileprivate let spools: [ImageSpool]

    /// Why a spool could not take the samples (a full disk), when that is why a write failed.
    fileprivate var spoolFailure: PrintError? { spools.lazy.compactMap(\.failure).first }

    package func writeColor(_ bytes: UnsafeRawBufferPointer) throws {
        var error: UnsafeMutablePointer<CChar>?
        if engine.image_write!(writer, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &error) != 0 {
            let message = QPDFDocument.take(error)
            throw spoolFailure ?? PrintError(.renderingFailed, "cannot store the image: \(message)")
        }
    }

    package func writeAlpha(_ bytes: UnsafeRawBufferPointer) throws {
        var error: UnsafeMutablePointer<CChar>?
        if engine.image_write_alpha!(writer, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &error) != 0 {
            let message = QPDFDocument.take(error)
            throw spoolFailure ?? PrintError(.renderingFailed, "cannot store the image: \(message)")
        }
    }
}

/// An entry of a PDF's outline: its title, level (1 at the top), the page it goes to (from 0)
/// and how far up that page (points from its bottom; nil for the page's top).
package struct OutlineEntry: Equatable, Sendable {
    package var title: String
    package var level: Int
    package var page: Int
    package var top: Double?
    package init(title: String, level: Int, page: Int, top: Double?) {
        self.title = title; self.level = level; self.page = page; self.top = top
    }
}
