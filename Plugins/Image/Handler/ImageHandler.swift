import Foundation
import Logging
import HandlerSupport

/// Images: each is one page (each page of a TIFF, each frame of a GIF when asked), placed as an
/// image object — a JPEG byte for byte (no re-encoding), other formats losslessly — with its ICC
/// profile, upright per its EXIF orientation; SVG is drawn as vectors.
///
/// UIKit's rules: a wide image prints landscape unless the job sets an orientation; the
/// default scaling (`auto`) fits the image to the printable area, as a photo print does.
public struct ImageHandler: ContentHandler {
    public let name = "image"
    public let contentTypes = ["public.jpeg", "public.png", "com.compuserve.gif", "public.tiff", "org.webmproject.webp",
                               "com.microsoft.bmp", "public.heif", "public.heic", "public.avif", "public.jpeg-xl", "public.svg-image"]

    public init() {}

    /// Reads `settings.placement` (`scaling` auto means fit, as a photo print does) and, in a
    /// photo grid (`photosPerSheet`), turns each image to suit its cell.
    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let formatter = ImagePrintFormatter()
        let placement = settings.placement
        if let v = placement.scaling { formatter.scaling = v }
        if let v = placement.position { formatter.position = v }
        formatter.percentOfArea = placement.percentOfArea
        formatter.ppi = placement.ppi
        if let v = placement.naturalScaling { formatter.naturalScaling = v / 100 }
        var limits = ImageLimits(maxPixels: settings.limits.pixelsPerImage, helper: ChildProcess.Limits(helper: settings.limits))
        limits.maxImages = settings.limits.pagesPerDocument
        formatter.allGIFFrames = placement.gifFrames == .all
        formatter.turnsToFitCells = settings.info.sheets.photosPerSheet != nil
        try formatter.add(path: input.path, limits: limits, head: input.head.map { Array($0.prefix(4096)) })
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
    /// CUPS's `scaling`: the image fits the printable area and is drawn at this percent of that
    /// size, whatever `scaling` says (nil: not asked).
    public var percentOfArea: Double?
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
        for path in paths { try add(path: path, limits: ImageLimits(), head: nil) }
    }

    /// Adds the image at `path`; its header is read (and checked) now, its pixels when written.
    /// `head`: its first bytes, when detection read them already.
    func add(path: String, limits: ImageLimits, head: [UInt8]?) throws {
        let bytes = head ?? ImageFormat.head(of: path)
        switch ImageFormat(head: bytes) {
        case .jpeg:
            let jpeg = try JPEGImage(path: path, limits: limits)
            let h = jpeg.header
            var pixels = CGSize(width: h.width, height: h.height)
            if EXIFOrientation.swapsAxes(h.orientation) { pixels = CGSize(width: pixels.height, height: pixels.width) }
            items.append(Item(content: PlacedContent(image: jpeg, naturalSize: pixels, orientation: EXIFOrientation.matrix(h.orientation)),
                              filePPI: h.ppi, pixels: pixels))
        case .png:
            let png = try PNGImage(path: path, limits: limits)
            let pixels = CGSize(width: png.width, height: png.height)
            items.append(Item(content: PlacedContent(image: png, naturalSize: pixels), filePPI: png.ppi, pixels: pixels))
        case .gif, .tiff, .webp, .heif, .jxl, .bmp, .svg:
            // Formats whose decoders are big libraries: decoded in a process of their own.
            let (document, ppi) = try ImageDecoderProcess.run(path: path, allGIFFrames: allGIFFrames, limits: limits)
            for page in 0..<document.pageCount {
                let content = try PlacedContent(page: page, of: document)
                items.append(Item(content: content, filePPI: page < ppi.count ? ppi[page] : nil, pixels: content.naturalSize))
            }
        case nil where bytes.isEmpty:
            throw PrintError.system(.inputUnreadable, path: path, "cannot read the file", errno: errno == 0 ? EIO : errno)
        case nil:
            throw PrintError(.unknownFormat, path: path, ImageFormat.unknownMessage)
        }
    }

    public override func makePageStream() throws -> FormattedPageStream {
        IndexedPageStream(count: items.count) { [self] index in ImagePage(formatter: self, item: items[index]) }
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
            let natural = CGSize(width: item.pixels.width * 72 / ppi, height: item.pixels.height * 72 / ppi)
            // For images, IPP leaves `auto` to the printer: like a photo print, it fits.
            let scaling = formatter.scaling == .auto ? .fit : formatter.scaling
            try context.place(item.content, size: natural, in: rect, scaling: scaling, scale: formatter.naturalScaling,
                              percentOfArea: formatter.percentOfArea, position: formatter.position, turnToFit: formatter.turnsToFitCells, mirror: formatter.mirror)
        }
    }
}
