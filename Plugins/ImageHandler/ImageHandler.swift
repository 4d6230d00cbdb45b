import Foundation
import Logging
import SwiftPrintCore

/// Images: each is one page (each page of a TIFF, each frame of a GIF when asked), placed as an
/// image object — a JPEG byte for byte (no re-encoding), other formats losslessly — with its ICC
/// profile, upright per its EXIF orientation; SVG is drawn as vectors.
///
/// UIKit's rules: a wide image prints landscape unless the job sets an orientation; the
/// default scaling (`auto`) fits the image to the printable area, as a photo print does.
public struct ImageHandler: ContentHandler {
    public let name = "image"
    public let contentTypes = ["public.jpeg", "public.png", "com.compuserve.gif", "public.tiff", "org.webmproject.webp",
                               "com.microsoft.bmp", "public.heif", "public.heic", "public.svg-image"]

    public init() {}

    /// Options read, by name: `print-scaling` (auto = fit, auto-fit, fit, fill, none),
    /// `position` (center, top, bottom-left …), `ppi` (the resolution for natural size; default
    /// the file's, else 72), `natural-scaling` (percent of natural size), `mirror` (true/false),
    /// `max-pixels` (the decompression-bomb limit), `gif-frames` (first or all), `photo-grid`
    /// (true: the job puts several images on a sheet, so each turns to suit its cell).
    public func makeFormatter(for input: PrintInput, options: HandlerOptions, info: PrintInfo) throws -> PrintFormatter {
        let formatter = ImagePrintFormatter()
        func bad(_ name: String, _ value: String) -> PrintError { PrintError(.invalidOption, "\(name) \"\(value)\" is not valid") }
        if let v = options["print-scaling"] { guard let s = PrintScaling(rawValue: v) else { throw bad("print-scaling", v) }; formatter.scaling = s }
        if let v = options["position"] { guard let p = ContentPosition(rawValue: v) else { throw bad("position", v) }; formatter.position = p }
        if let v = options["ppi"] { guard let n = Double(v), n > 0, n <= 10000 else { throw bad("ppi", v) }; formatter.ppi = n }
        if let v = options["natural-scaling"] { guard let n = Double(v), n > 0, n <= 1000 else { throw bad("natural-scaling", v) }; formatter.naturalScaling = n / 100 }
        if let v = options["mirror"] { formatter.mirror = v == "true" }
        var limits = ImageLimits()
        if let v = options["max-pixels"] { guard let n = Int(v), n > 0 else { throw bad("max-pixels", v) }; limits.maxPixels = n }
        if let v = options["gif-frames"] { guard ["first", "all"].contains(v) else { throw bad("gif-frames", v) }; formatter.allGIFFrames = v == "all" }
        formatter.turnsToFitCells = options["photo-grid"] == "true"
        try formatter.add(path: input.path, limits: limits)
        return formatter
    }
}

/// Lays out images, one per page.
public final class ImagePrintFormatter: PrintFormatter {
    public var scaling: PrintScaling = .auto
    public var position: ContentPosition = .center
    /// Pixels per inch for natural size, overriding the file's own.
    public var ppi: Double?
    /// A factor on natural size (IPP natural scaling), for `none` and `auto-fit`.
    public var naturalScaling: Double = 1
    /// Print mirror-image (for transfers).
    public var mirror = false
    /// Every frame of an animated GIF, one per page (else the first).
    public var allGIFFrames = false
    /// In a photo grid an image cannot turn its sheet: it turns itself a quarter to suit its cell.
    public var turnsToFitCells = false

    struct Item {
        /// An image object, or the page swiftprint-image made of a decoded image or an SVG.
        let content: PlacedContent
        /// Pixels per inch the file states, if it does.
        let filePPI: Double?
        /// Its size upright, in pixels (in points for SVG, whose "pixels" are at 72 ppi here).
        let pixels: CGSize
    }

    private var items: [Item] = []

    public override var placesContent: Bool { true }

    public override init() { super.init() }

    /// The images at `paths`, one page each, read and checked now (their pixels when written).
    public convenience init(paths: [String]) throws {
        self.init()
        for path in paths { try add(path: path, limits: ImageLimits()) }
    }

    /// Adds the image at `path`; its header is read (and checked) now, its pixels when written.
    func add(path: String, limits: ImageLimits) throws {
        let head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 4096)) ?? nil
        let bytes = [UInt8](head ?? Data())
        if bytes.starts(with: [0xFF, 0xD8]) {
            let jpeg = try JPEGImage(path: path, limits: limits)
            let h = jpeg.header
            var pixels = CGSize(width: h.width, height: h.height)
            if EXIFOrientation.swapsAxes(h.orientation) { pixels = CGSize(width: pixels.height, height: pixels.width) }
            items.append(Item(content: PlacedContent(image: jpeg, naturalSize: pixels, orientation: EXIFOrientation.matrix(h.orientation)),
                              filePPI: h.ppi, pixels: pixels))
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            let png = try PNGImage(path: path, limits: limits)
            let pixels = CGSize(width: png.width, height: png.height)
            items.append(Item(content: PlacedContent(image: png, naturalSize: pixels), filePPI: png.ppi, pixels: pixels))
        } else if ImageDecoderProcess.handles(bytes) {
            // Formats whose decoders are big libraries: decoded in a process of their own.
            let (document, ppi) = try ImageDecoderProcess.run(path: path, allGIFFrames: allGIFFrames, limits: limits)
            for page in 0..<document.pageCount {
                let content = try PlacedContent(page: page, of: document)
                items.append(Item(content: content, filePPI: page < ppi.count ? ppi[page] : nil, pixels: content.naturalSize))
            }
        } else if bytes.isEmpty {
            throw PrintError.system(.inputUnreadable, path: path, "cannot read the file", errno: errno == 0 ? EIO : errno)
        } else {
            throw PrintError(.unknownFormat, path: path, "not an image format swiftprint reads (JPEG, PNG, GIF, TIFF, WebP, BMP, HEIF, SVG)")
        }
    }

    public override func makePageStream() throws -> FormattedPageStream { ImageStream(formatter: self) }

    private final class ImageStream: FormattedPageStream {
        let formatter: ImagePrintFormatter
        var next = 0
        init(formatter: ImagePrintFormatter) { self.formatter = formatter }

        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            guard next < formatter.items.count else { return nil }
            defer { next += 1 }
            return ImagePage(formatter: formatter, item: formatter.items[next])
        }
    }

    struct ImagePage: FormattedPage {
        let formatter: ImagePrintFormatter
        let item: Item

        /// A wide image asks for a landscape sheet; the job's orientation, when set, wins.
        var sheet: SheetRequest {
            .orientation(item.pixels.width > item.pixels.height ? .landscape : .portrait)
        }

        func draw(in context: GraphicsContext, rect: CGRect) throws {
            let ppi = formatter.ppi ?? item.filePPI ?? 72
            var natural = CGSize(width: item.pixels.width * 72 / ppi, height: item.pixels.height * 72 / ppi)
            let turn = formatter.turnsToFitCells && natural.width != natural.height && (natural.width > natural.height) != (rect.width > rect.height)
            if turn { natural = CGSize(width: natural.height, height: natural.width) }
            // For images, IPP leaves `auto` to the printer: like a photo print, it fits.
            let scaling = formatter.scaling == .auto ? .fit : formatter.scaling
            var (frame, overflows) = scaling.frame(for: natural, in: rect, scale: formatter.naturalScaling, position: formatter.position)
            try context.withSavedState {
                var clip = rect
                if turn {
                    // A quarter turn anticlockwise about the frame, as for PDF pages.
                    context.translateBy(x: frame.minX, y: frame.maxY)
                    context.rotate(by: -.pi / 2)
                    clip = CGRect(x: frame.maxY - rect.maxY, y: rect.minX - frame.minX, width: rect.height, height: rect.width)
                    frame = CGRect(x: 0, y: 0, width: frame.height, height: frame.width)
                }
                if formatter.mirror {
                    context.translateBy(x: frame.midX * 2, y: 0)
                    context.scaleBy(x: -1, y: 1)
                }
                try context.place(item.content, in: frame, clippedTo: overflows ? clip : nil)
            }
        }
    }
}
