import Foundation
import HandlerSupport

/// A file's bytes at one address for as long as this lives: for decoders that keep a pointer to
/// their input between calls (libjxl, libavif). `Data` cannot lend such a pointer: its
/// `withUnsafeBytes` pointer is good only inside the closure, and a file of up to 14 bytes is
/// stored inline, so the pointer is to a copy on the stack that is gone when the closure returns
/// (the fuzzer found libjxl reading one: Fuzz/Corpus/jxl/found/seven-byte-codestream).
package final class PinnedInput {
    package let bytes: UnsafeMutableRawBufferPointer

    package init(path: String) throws {
        let data = try readFile(path)
        bytes = .allocate(byteCount: max(data.count, 1), alignment: 16)
        data.copyBytes(to: bytes.bindMemory(to: UInt8.self), count: data.count)
        count = data.count
    }

    deinit { bytes.deallocate() }

    package let count: Int
    package var start: UnsafePointer<UInt8> { UnsafePointer(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
}
