import Foundation
import HandlerSupport
import PixbufDecoding

/// BMP through gdk-pixbuf (no smaller Debian library reads it).
package enum BMPDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> DecodedImage {
        guard let (w, h) = Pixbuf.size(ofFile: path) else {
            throw PrintError(.invalidInput, path: path, "not a valid BMP image")
        }
        try limits.check(width: w, height: h, path: path)
        return DecodedImage(width: w, height: h) {
            let pixbuf: Pixbuf
            do { pixbuf = try Pixbuf(file: path) } catch let error as PixbufError {
                throw PrintError(.invalidInput, path: path, "not a valid BMP image (\(error.message))")
            }
            let width = pixbuf.width, height = pixbuf.height, channels = pixbuf.channels, stride = pixbuf.rowStride
            let source = pixbuf.bytes
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<channels { pixels[(y * width + x) * 4 + c] = source[y * stride + x * channels + c] }
                }
            }
            return DecodedPixels(width: width, height: height, rgba: pixels)
        }
    }
}
