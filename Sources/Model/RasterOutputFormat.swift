import Foundation

/// What a job writes: PDF, or a raster stream for a printer that takes no PDF.
public enum OutputFormat: String, Sendable, Codable, CaseIterable {
    case pdf
    /// PWG raster (`image/pwg-raster`), what driverless printers take.
    case pwgRaster = "pwg-raster"
    /// Apple raster (`image/urf`), AirPrint's.
    case appleRaster = "urf"

    /// The IPP document-format (MIME type) of the output.
    public var mimeType: String {
        switch self {
        case .pdf: "application/pdf"
        case .pwgRaster: "image/pwg-raster"
        case .appleRaster: "image/urf"
        }
    }

    /// By keyword or by MIME type.
    public init?(name: String) {
        let n = name.lowercased()
        guard let format = Self.allCases.first(where: { $0.rawValue == n || $0.mimeType == n }) else { return nil }
        self = format
    }
}

/// A printer resolution in dots per inch, across and down (IPP's `printer-resolution`).
public struct PrinterResolution: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) { self.x = x; self.y = y }

    /// `300`, `600dpi`, `600x300dpi`; 1 to 9600 dots per inch each way.
    public init?(text: String) {
        var t = text.lowercased()
        if t.hasSuffix("dpi") { t.removeLast(3) }
        let parts = t.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), let x = parts[0], let y = parts.count == 2 ? parts[1] : x,
              (1...9600).contains(x), (1...9600).contains(y) else { return nil }
        self.init(x: x, y: y)
    }

    public var description: String { x == y ? "\(x)dpi" : "\(x)x\(y)dpi" }
    public static let standard = PrinterResolution(x: 300, y: 300)
}

/// The colour and depth of raster output, by IPP's `pwg-raster-document-type` names.
public enum RasterType: String, Sendable, Codable, CaseIterable {
    case sgray8 = "sgray_8", sgray16 = "sgray_16"
    case srgb8 = "srgb_8", srgb16 = "srgb_16"
    case black8 = "black_8", black16 = "black_16"
    /// One bit a pixel, dithered: black ink (1 is black) or grey (1 is white).
    case black1 = "black_1", sgray1 = "sgray_1"
    /// Colour managed by Little CMS: Adobe RGB, and CMYK for the profile the job names.
    case adobeRGB8 = "adobe-rgb_8", adobeRGB16 = "adobe-rgb_16"
    case cmyk8 = "cmyk_8", cmyk16 = "cmyk_16"

    /// Grey or black: one component.
    public var isMonochrome: Bool { [.sgray8, .sgray16, .black8, .black16, .black1, .sgray1].contains(self) }
    public var bitsPerColor: Int { rawValue.hasSuffix("_16") ? 16 : rawValue.hasSuffix("_1") ? 1 : 8 }
}

/// How the back of a two-sided sheet is turned in a raster stream (IPP's
/// `pwg-raster-document-sheet-back`), as the printer expects it.
public enum SheetBack: String, Sendable, Codable, CaseIterable {
    case normal, flipped, rotated
    case manualTumble = "manual-tumble"
}
