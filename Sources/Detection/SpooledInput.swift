import Foundation
import PrintModel
import PrintSupport

/// Inputs that must be files for their handler (standard input, bytes in memory) are spooled to
/// a scratch file first; the spool is removed when this goes away.
public final class SpooledInput {
    public let input: PrintInput
    private let scratch: OutputFile?

    /// A limit on an input's size: its bytes, and the option that sets it (named in the error).
    public struct SizeLimit: Sendable {
        public var bytes: Int
        public var option: String
        public init(bytes: Int, option: String) { self.bytes = bytes; self.option = option }
    }

    /// Spools `original` when it must be; an input larger than `limit` is refused, standard
    /// input as soon as it passes the limit (nothing past it is kept).
    public init(_ original: PrintInput, limit: SizeLimit? = nil) throws {
        func tooLarge(_ size: String) -> PrintError {
            PrintError(.limitExceeded, path: original.path, "the file has \(size) bytes, more than the limit of \(limit!.bytes >> 20) MB",
                       option: limit!.option)
        }
        guard original.path == "-" || original.data != nil else {
            var info = stat()
            if let limit, stat(original.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit.bytes {
                throw tooLarge(String(info.st_size))
            }
            input = original; scratch = nil; return
        }
        if let limit, let data = original.data, data.count > limit.bytes { throw tooLarge(String(data.count)) }
        let file = try OutputFile.scratch(prefix: "swiftprint-input-")
        if let data = original.data {
            data.withUnsafeBytes { file.write($0) }
        } else {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { file.removeScratch(); throw PrintError.system(.inputUnreadable, path: "-", "cannot read standard input", errno: errno) }
                if n == 0 { break }
                total += n
                if let limit, total > limit.bytes { file.removeScratch(); throw tooLarge("more than \(limit.bytes)") }
                buffer.withUnsafeBytes { file.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }
        try file.commit()
        var spooled = PrintInput(path: file.scratchPath!)
        spooled.displayName = original.displayName
        spooled.declaredMIMEType = original.declaredMIMEType
        input = spooled
        scratch = file
    }

    deinit { scratch?.removeScratch() }
}
