/// The `swiftprint:` device URI of a save-as-PDF queue, read once: the spool folder, and the
/// account that saves the jobs of senders who have none on this machine (phones on the network).
///
///     swiftprint:/var/spool/swiftprint
///     swiftprint:///var/spool/swiftprint?guest=nobody
///
/// The path is percent-decoded before it is checked, so `%2e%2e` is a `..` like any other and
/// is refused: the folder is absolute, has no `.` or `..` component and no control character.
public struct SpoolDeviceURI: Equatable, Sendable {
    public static let scheme = "swiftprint"

    /// The spool folder, decoded.
    public var folder: String
    /// The account guests' jobs are saved as (`guest=`), or nil: a sender with no account here
    /// gets no file, and the job is held.
    public var guestAccount: String?

    public init(folder: String, guestAccount: String? = nil) {
        self.folder = folder
        self.guestAccount = guestAccount
    }

    /// Nil when `uri` is not a `swiftprint:` URI of a plain absolute folder.
    public init?(_ uri: String) {
        guard uri.hasPrefix(Self.scheme + ":") else { return nil }
        var rest = Substring(uri.dropFirst(Self.scheme.count + 1))
        if rest.hasPrefix("//") { rest = rest.dropFirst(2) }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") { query = rest[rest.index(after: mark)...]; rest = rest[..<mark] }
        guard let path = Self.percentDecoded(rest), path.hasPrefix("/"),
              !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
              !path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        folder = path
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == "guest", let account = Self.percentDecoded(parts[1]),
                  !account.isEmpty, account.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "/" }) else { return nil }
            guestAccount = account
        }
    }

    /// The URI for `folder` and `guestAccount`, escaped so that `init` reads them back.
    public var uri: String {
        "\(Self.scheme):\(Self.escaped(folder, keeping: "/"))" + (guestAccount.map { "?guest=" + Self.escaped($0, keeping: "") } ?? "")
    }

    /// `%41`-style escapes decoded; nil when the bytes are not UTF-8 or an escape is malformed
    /// or decodes to NUL.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = [], utf8 = Array(text.utf8), i = 0
        while i < utf8.count {
            guard utf8[i] == UInt8(ascii: "%") else { bytes.append(utf8[i]); i += 1; continue }
            guard i + 2 < utf8.count, let v = UInt8(String(decoding: utf8[(i + 1)...(i + 2)], as: UTF8.self), radix: 16), v != 0 else { return nil }
            bytes.append(v); i += 3
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func escaped(_ text: String, keeping extra: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in text.utf8 {
            let plain = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "-._~".utf8.contains(b) || extra.utf8.contains(b)
            if plain { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
