import Foundation
import HandlerSupport

/// Reads a file in chunks and hands them on as UTF-8.
protocol UTF8ChunkSource: AnyObject {
    /// The next chunk of UTF-8, valid until the next call; nil at the end.
    func nextChunk() throws -> UnsafeBufferPointer<UInt8>?
    /// Input bytes consumed so far.
    var bytesRead: Int { get }
}

/// Raw chunks of a file already in UTF-8.
final class FileChunks: UTF8ChunkSource {
    private let fd: Int32
    private let path: String
    private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 18)
    private(set) var bytesRead = 0

    init(fd: Int32, path: String) { self.fd = fd; self.path = path }
    deinit { buffer.deallocate() }

    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw PrintError.system(.inputUnreadable, path: path, "cannot read", errno: errno)
            }
            if n == 0 { return nil }
            bytesRead += n
            return UnsafeBufferPointer(rebasing: buffer[0..<n])
        }
    }
}

/// Converts another encoding to UTF-8 with iconv, chunk by chunk. A byte sequence the
/// encoding does not allow becomes U+FFFD and decoding goes on.
final class IconvChunks: UTF8ChunkSource {
    private let raw: FileChunks
    private let converter: iconv_t
    private var pending: [UInt8] = []        // raw bytes not yet converted
    private let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 19)
    private var rawEnded = false
    var bytesRead: Int { raw.bytesRead }

    init(raw: FileChunks, encoding: String, path: String) throws {
        self.raw = raw
        let cd = iconv_open("UTF-8", encoding)
        guard let cd, cd != iconv_t(bitPattern: -1) else {
            out.deallocate()
            throw PrintError(.invalidOption, path: path, "unknown text encoding \(encoding) (iconv does not know it)")
        }
        converter = cd
    }

    deinit {
        iconv_close(converter)
        out.deallocate()
    }

    func nextChunk() throws -> UnsafeBufferPointer<UInt8>? {
        while true {
            if !pending.isEmpty {
                // At the end an incomplete sequence becomes U+FFFD, so this always makes progress.
                let produced = convert(final: rawEnded)
                if produced > 0 { return UnsafeBufferPointer(rebasing: out[0..<produced]) }
            }
            if rawEnded { return nil }
            if let chunk = try raw.nextChunk() { pending.append(contentsOf: chunk) } else { rawEnded = true }
        }
    }

    /// Converts as much of `pending` as fits into `out`; returns the bytes produced.
    private func convert(final: Bool) -> Int {
        var produced = 0
        var consumed = 0
        pending.withUnsafeMutableBufferPointer { input in
            var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(input.baseAddress!).assumingMemoryBound(to: CChar.self)
            var inLeft = input.count
            while inLeft > 0 && out.count - produced >= 8 {
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(out.baseAddress! + produced).assumingMemoryBound(to: CChar.self)
                var outLeft = out.count - produced
                let before = outLeft
                let r = iconv(converter, &inPtr, &inLeft, &outPtr, &outLeft)
                produced += before - outLeft
                if r != -1 { break }
                let e = errno
                if e == E2BIG { break }
                if e == EINVAL && !final { break }  // incomplete sequence: wait for more bytes
                // EILSEQ, or an incomplete sequence at the very end: skip a byte, write U+FFFD.
                inPtr = inPtr! + 1; inLeft -= 1
                for b: UInt8 in [0xEF, 0xBF, 0xBD] { out[produced] = b; produced += 1 }
            }
            consumed = input.count - inLeft
        }
        pending.removeFirst(consumed)
        return produced
    }
}
