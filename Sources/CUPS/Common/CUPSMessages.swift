#if canImport(Glibc)
import Glibc
#endif

/// What a filter or backend tells cupsd: one line on standard error, `LEVEL: message`
/// (`ERROR`, `WARNING`, `INFO`, `DEBUG`, `ATTR`), which cupsd logs and shows in `lpstat -l`.
public enum CUPSMessages {
    /// Writes `LEVEL: message` as one line: a message quotes titles, user names and file names a
    /// job supplies, so each control character (a line break would start a message of the
    /// sender's choosing, `ATTR:` or `PPD:`) and each direction override (which reorders what
    /// an administrator reads in the log) becomes a space.
    public static func send(_ level: String, _ message: String) {
        var line = "\(level): \(oneLine(message))\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `text` with control characters, line separators and direction overrides as spaces.
    public static func oneLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: scalars.append(" ")
            default: scalars.append(s)
            }
        }
        return String(scalars)
    }
}
