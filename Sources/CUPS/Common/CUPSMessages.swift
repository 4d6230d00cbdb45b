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

    /// Ends the program with `status`; a failure, only once cupsd has read every line it wrote
    /// (up to two seconds). cupsd handles a process's exit before lines still waiting in its
    /// status pipe, and once it has noted "Filter failed" (or "Backend failed") at an exit, a
    /// later ERROR line no longer reaches the job's `job-printer-state-message`: a program
    /// leaving right after its reason would, on a busy machine, be shown as having failed for
    /// no reason. A success leaves at once: its work is done, and a signal in a wait after it
    /// (a job cancelled at that moment) must not turn it into a failure.
    public static func exitWhenRead(_ status: Int32) -> Never {
        var info = stat()
        if status != 0, fstat(STDERR_FILENO, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO {
            for _ in 0..<400 {
                var unread: Int32 = 0
                guard ioctl(STDERR_FILENO, UInt(FIONREAD), &unread) == 0, unread > 0 else { break }
                usleep(5000)
            }
        }
        exit(status)
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
