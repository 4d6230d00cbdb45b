import CWebP
import Foundation
import HandlerSupport

/// WebP through libwebp.
package enum WebPDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> DecodedImage {
        let data = try readFile(path)
        var w: Int32 = 0, h: Int32 = 0
        let ok = data.withUnsafeBytes { WebPGetInfo($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &w, &h) }
        guard ok != 0 else { throw PrintError(.invalidInput, path: path, "not a valid WebP image") }
        try limits.check(width: Int(w), height: Int(h), path: path)
        return DecodedImage(width: Int(w), height: Int(h)) {
            let data = try readFile(path)
            var w: Int32 = 0, h: Int32 = 0
            guard let rgba = data.withUnsafeBytes({ WebPDecodeRGBA($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &w, &h) }) else {
                throw PrintError(.invalidInput, path: path, "not a valid WebP image (it cannot be decoded)")
            }
            defer { WebPFree(rgba) }
            return RGBAImage(width: Int(w), height: Int(h), pixels: Array(UnsafeBufferPointer(start: rgba, count: Int(w) * Int(h) * 4)))
        }
    }
}
