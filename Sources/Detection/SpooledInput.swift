import Foundation
import PrintModel
import PrintSupport

/// Inputs that must be files for their handler (standard input, bytes in memory) are spooled to
/// a scratch file first; the spool is removed when this goes away.
public final class SpooledInput {
    public let input: PrintInput
    private let scratch: OutputFile?

    public init(_ original: PrintInput) throws {
        guard original.path == "-" || original.data != nil else {
            input = original; scratch = nil; return
        }
        let file = try OutputFile.scratch(prefix: "swiftprint-input-")
        if let data = original.data {
            data.withUnsafeBytes { file.write($0) }
        } else {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw PrintError.system(.inputUnreadable, path: "-", "cannot read standard input", errno: errno) }
                if n == 0 { break }
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
