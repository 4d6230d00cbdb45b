import CTIFFShim
import Foundation
import HandlerSupport

/// TIFF through libtiff: every page becomes a page, alpha kept; 16-bit grey and RGB pages (scans,
/// photo editors' exports) keep their 16 bits, other pages are read by libtiff's 8-bit RGBA reader.
package enum TIFFDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> [DecodedImage] {
        let reader = try TIFFReader(path: path)
        var pages: [DecodedImage] = []
        try limits.check(images: reader.pageCount, kind: "TIFF", path: path)
        for page in 0..<reader.pageCount {
            let info = try reader.info(page: page)
            try limits.check(width: info.width, height: info.height, path: path)
            pages.append(DecodedImage(width: info.width, height: info.height, ppi: info.ppi) {
                let reader = try TIFFReader(path: path)
                let info = try reader.info(page: page)
                if let layout = reader.deepLayout(page: page) {
                    let channels = layout.colorChannels + (layout.hasAlpha ? 1 : 0)
                    var samples = [UInt8](repeating: 0, count: info.width * info.height * channels * 2)
                    try reader.readDeep(page: page, into: &samples)
                    return DecodedPixels(width: info.width, height: info.height, colorChannels: layout.colorChannels, hasAlpha: layout.hasAlpha,
                                         bitsPerComponent: 16, samples: samples, iccProfile: info.icc)
                }
                var pixels = [UInt8](repeating: 0, count: info.width * info.height * 4)
                try reader.readRGBA(page: page, into: &pixels)
                return DecodedPixels(width: info.width, height: info.height, rgba: pixels, iccProfile: info.icc)
            })
        }
        guard !pages.isEmpty else { throw PrintError(.invalidInput, path: path, "the TIFF has no pages") }
        return pages
    }
}

/// The one owner of a libtiff reader.
package final class TIFFReader {
    private let handle: OpaquePointer
    package let path: String

    package init(path: String) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard let h = sp_tiff_open(path, &message, message.count) else { throw Self.error(path, message) }
        handle = h
    }

    deinit { sp_tiff_close(handle) }

    package var pageCount: Int { Int(sp_tiff_page_count(handle)) }

    package func info(page: Int) throws -> (width: Int, height: Int, ppi: Double?, icc: Data?) {
        var w: UInt32 = 0, h: UInt32 = 0, ppi = 0.0, iccLength: UInt32 = 0
        var icc: UnsafePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        guard sp_tiff_page_info(handle, Int32(page), &w, &h, &ppi, &icc, &iccLength, &message, message.count) == 0 else {
            throw Self.error(path, message)
        }
        return (Int(w), Int(h), ppi > 0 ? ppi : nil, icc.map { Data(bytes: $0, count: Int(iccLength)) })
    }

    package func readRGBA(page: Int, into pixels: inout [UInt8]) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeMutableBufferPointer { sp_tiff_read_rgba(handle, Int32(page), $0.baseAddress, &message, message.count) }
        if status != 0 { throw Self.error(path, message) }
    }

    /// The page's colour samples and alpha when it can be read at its own 16 bits, else nil.
    package func deepLayout(page: Int) -> (colorChannels: Int, hasAlpha: Bool)? {
        var colors: Int32 = 0, alpha: Int32 = 0
        guard sp_tiff_deep_layout(handle, Int32(page), &colors, &alpha) == 1 else { return nil }
        return (Int(colors), alpha != 0)
    }

    package func readDeep(page: Int, into samples: inout [UInt8]) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = samples.withUnsafeMutableBufferPointer { sp_tiff_read_deep(handle, Int32(page), $0.baseAddress, &message, message.count) }
        if status != 0 { throw Self.error(path, message) }
    }

    static func error(_ path: String, _ message: [CChar]) -> PrintError {
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return PrintError(.invalidInput, path: path, "not a valid TIFF (\(text))")
    }
}
