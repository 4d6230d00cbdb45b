#if canImport(Glibc)
import Glibc
#endif

/// What a filter or backend tells cupsd: one line on standard error, `LEVEL: message`
/// (`ERROR`, `WARNING`, `INFO`, `DEBUG`, `ATTR`), which cupsd logs and shows in `lpstat -l`.
public enum CUPSMessages {
    /// Writes `LEVEL: message`, line breaks taken out so that it stays one line.
    public static func send(_ level: String, _ message: String) {
        var line = "\(level): \(message.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " "))\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
