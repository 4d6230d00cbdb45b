import Foundation

/// A named paper size from the catalogue in `Config/papers.tsv`, or a custom size.
public struct MediaSize: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The PWG 5101.1 self-describing name, e.g. `iso_a4_210x297mm`.
    public var pwgName: String
    /// Portrait size in points.
    public var size: CGSize
    /// A short name for people: `A4`, `US Letter`.
    public var displayName: String

    public init(pwgName: String, size: CGSize, displayName: String) {
        self.pwgName = pwgName; self.size = size; self.displayName = displayName
    }

    public var description: String { pwgName }

    /// Every catalogued size with its PPD name (`A4`, `Letter`, `Env10`), in catalogue order.
    public static var catalogue: [(media: MediaSize, ppdName: String)] {
        MediaCatalogue.shared.all.map { ($0, MediaCatalogue.shared.ppdNames[$0.pwgName] ?? $0.displayName) }
    }

    public static var a4: MediaSize { MediaCatalogue.shared.media(named: "iso_a4_210x297mm")! }
    public static var letter: MediaSize { MediaCatalogue.shared.media(named: "na_letter_8.5x11in")! }
    public static var a6: MediaSize { MediaCatalogue.shared.media(named: "iso_a6_105x148mm")! }
    public static var photo4x6: MediaSize { MediaCatalogue.shared.media(named: "na_index-4x6_4x6in")! }

    /// Finds a size by PWG name, PPD/CUPS alias (case-insensitive), or a custom size written
    /// `210x297mm`, `8.5x11in`, `612x792` (points) or PWG's `custom_name_WxHunit`.
    public static func named(_ name: String) -> MediaSize? {
        if let known = MediaCatalogue.shared.media(named: name) { return known }
        return custom(name)
    }

    private static func custom(_ name: String) -> MediaSize? {
        // The size is the part after the last underscore in a PWG name, or the whole text.
        let sizeText = name.split(separator: "_").last.map(String.init) ?? name
        var unit = 1.0, body = Substring(sizeText.lowercased())
        if body.hasSuffix("mm") { unit = Length.pointsPerMillimetre; body = body.dropLast(2) }
        else if body.hasSuffix("in") { unit = Length.pointsPerInch; body = body.dropLast(2) }
        else if body.hasSuffix("pt") { body = body.dropLast(2) }
        let parts = body.split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w > 0, h > 0, w * unit <= 14_400, h * unit <= 14_400 else { return nil }
        let size = CGSize(width: w * unit, height: h * unit)
        let pwg = "custom_\(Self.format(w))x\(Self.format(h))\(unit == 1 ? "pt" : unit == Length.pointsPerInch ? "in" : "mm")"
        return MediaSize(pwgName: pwg, size: size, displayName: pwg)
    }

    /// A custom size of `size` points (in portrait), named as PWG names custom sizes.
    public static func custom(points size: CGSize) -> MediaSize {
        let w = min(size.width, size.height), h = max(size.width, size.height)
        let pwg = "custom_\(format(w))x\(format(h))pt"
        return MediaSize(pwgName: pwg, size: CGSize(width: w, height: h), displayName: pwg)
    }

    private static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}

/// The paper catalogue, read once from `Config/papers.tsv`.
public final class MediaCatalogue: Sendable {
    public static let shared = MediaCatalogue()

    public let all: [MediaSize]
    /// Each size's PPD name (its first alias: A4, Letter, Env10), by PWG name.
    let ppdNames: [String: String]
    private let byName: [String: MediaSize]

    init() {
        var all: [MediaSize] = []
        var byName: [String: MediaSize] = [:]
        var ppdNames: [String: String] = [:]
        let text = ConfigFiles.read("papers.tsv")
        // Split as UTF-8 bytes: splitting the String itself walks grapheme clusters, which made
        // reading this small file a millisecond of every run.
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            let f = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            guard f.count >= 6, !f[0].hasPrefix("#"), f[0] != "pwg", let w = Double(f[1]), let h = Double(f[2]) else { continue }
            let media = MediaSize(pwgName: f[0],
                                  size: CGSize(width: w * Length.pointsPerMillimetre, height: h * Length.pointsPerMillimetre),
                                  displayName: f[3])
            all.append(media)
            byName[f[0].lowercased()] = media
            for alias in f[4].split(separator: ",") { byName[alias.lowercased()] = media }
            ppdNames[f[0]] = f[4].split(separator: ",").first.map(String.init) ?? f[3]
        }
        self.all = all
        self.ppdNames = ppdNames
        self.byName = byName
    }

    public func media(named name: String) -> MediaSize? { byName[name.lowercased()] }
}

/// Files from the `Config/` folder: data, not code. Looked for, in order, in
/// `$SWIFTPRINT_CONFIG_DIR`, `<executable>/../share/swiftprint/Config` (an installation; also
/// `../../share` for helpers in `<prefix>/libexec/swiftprint`),
/// the `Config/` of the source tree the executable was built in, and
/// `/usr/local/share/swiftprint/Config`, `/usr/share/swiftprint/Config`.
public enum ConfigFiles {
    public static let directory: String? = {
        let env = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let dir = env["SWIFTPRINT_CONFIG_DIR"] { candidates.append(dir) }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first.map(Self.resolve) ?? "/").deletingLastPathComponent()
        candidates.append(dir.appendingPathComponent("../share/swiftprint/Config").standardized.path)
        // Helpers installed in <prefix>/libexec/swiftprint/ (the CUPS filter, the image decoder).
        candidates.append(dir.appendingPathComponent("../../share/swiftprint/Config").standardized.path)
        while dir.path != "/" {
            candidates.append(dir.appendingPathComponent("Config").path)
            dir.deleteLastPathComponent()
        }
        candidates += ["/usr/local/share/swiftprint/Config", "/usr/share/swiftprint/Config"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/papers.tsv") }
    }()

    static func read(_ name: String) -> String {
        guard let dir = directory, let text = text(atPath: dir + "/" + name) else {
            // The catalogue is part of the installation; without it no paper can be named.
            fatalError("swiftprint: its data file Config/\(name) is missing; set SWIFTPRINT_CONFIG_DIR to the Config folder of the installation")
        }
        return text
    }

    /// The file's text; nil when it cannot be read or is not UTF-8. Read with plain system calls:
    /// `String(contentsOfFile:)` goes through Foundation's slower decoding for these small files
    /// that every run reads.
    package static func text(atPath path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func resolve(_ path: String) -> String {
        // The executable's real path, so that a symlink in /usr/bin still finds its data.
        if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return real }
        return path
    }
}
