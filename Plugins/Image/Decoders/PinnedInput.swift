import Foundation
import HandlerSupport

/// A file's bytes at one address for as long as this lives: for decoders that keep a pointer to
/// their input between calls (libjxl, libavif). `Data` cannot lend such a pointer: its
/// `withUnsafeBytes` pointer is good only inside the closure, and a file of up to 14 bytes is
/// stored inline, so the pointer is to a copy on the stack that is gone when the closure returns
/// (the fuzzer found libjxl reading one: Fuzz/Corpus/jxl/found/seven-byte-codestream).
package final class PinnedInput {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    package let count: Int
    package var start: UnsafePointer<UInt8> { UnsafePointer(bytes.baseAddress!) }

    package init(path: String) throws {
        let data = try readFile(path)
        bytes = .allocate(capacity: max(data.count, 1))
        count = data.copyBytes(to: bytes)
    }

    deinit { bytes.deallocate() }
}
