import CWebP
import Foundation
import HandlerSupport

/// WebP through libwebp, with its ICC profile (the `ICCP` chunk, found by libwebpdemux).
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
            return DecodedPixels(width: Int(w), height: Int(h), rgba: Array(UnsafeBufferPointer(start: rgba, count: Int(w) * Int(h) * 4)),
                                 iccProfile: iccProfile(data))
        }
    }

    /// The profile in an extended WebP's `ICCP` chunk, if it has one.
    static func iccProfile(_ data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            var bytes = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demux = WebPDemux(&bytes) else { return nil }
            defer { WebPDemuxDelete(demux) }
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let start = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
            return Data(bytes: start, count: chunk.chunk.size)
        }
    }
}
