/// File names made from strings a job supplies (its title, its user name, which `lp -t` and
/// `lp -U` set to anything): one path component, no control characters, not hidden, not too
/// long, and still readable — letters of every script are kept.
public enum SafeFileName {
    /// Longest name part in bytes, leaving room for a job number, a suffix and `.pdf` within
    /// the usual 255-byte limit of a file name.
    public static let maximumBytes = 200

    /// `text` as one safe path component; `fallback` when nothing printable is left.
    public static func component(_ text: String, fallback: String = "untitled") -> String {
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x2F, 0x5C: scalars.append("_")                      // / and \ separate paths
            case 0..<0x20, 0x7F..<0xA0, 0xFFFD: scalars.append("_")   // control characters, bad bytes
            case 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                scalars.append("_")                                   // line breaks and direction overrides
            default: scalars.append(s)
            }
        }
        var name = String(scalars)
        // No hidden files, no "." or "..", no names that start like options.
        while let first = name.first, first == "." || first == "-" || first == " " || first == "_" { name.removeFirst() }
        while let last = name.last, last == " " || last == "." { name.removeLast() }
        name = truncated(name, toBytes: maximumBytes)
        return name.isEmpty ? fallback : name
    }

    /// The longest prefix of `text` that fits in `limit` UTF-8 bytes, cut between characters.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for c in text {
            let n = c.utf8.count
            if bytes + n > limit { break }
            result.append(c); bytes += n
        }
        return result
    }
}
