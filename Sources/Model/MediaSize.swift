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
        guard let size = dimensions(of: name), size.width <= 14_400, size.height <= 14_400 else { return nil }
        return custom(width: size.width, length: size.height)
    }

    /// The size a name gives: the part after its last underscore, `80x200mm`, `8.5x11in` or
    /// `612x792` (points), width first; nil when it gives none.
    package static func dimensions(of name: String) -> CGSize? {
        let sizeText = name.split(separator: "_").last.map(String.init) ?? name
        var unit = 1.0, body = Substring(sizeText.lowercased())
        if body.hasSuffix("mm") { unit = Length.pointsPerMillimetre; body = body.dropLast(2) }
        else if body.hasSuffix("in") { unit = Length.pointsPerInch; body = body.dropLast(2) }
        else if body.hasSuffix("pt") { body = body.dropLast(2) }
        let parts = body.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0 else { return nil }
        return CGSize(width: w * unit, height: h * unit)
    }

    /// The catalogue's paper of `size` (either way round, within half a point: CSS's `A4` is
    /// 210 mm in its own units), else a custom size: a printer that takes A4 is asked for
    /// iso_a4_210x297mm, not a custom size of the same measure.
    public static func matching(points size: CGSize) -> MediaSize {
        let short = min(size.width, size.height), long = max(size.width, size.height)
        return catalogue.lazy.map(\.media).first { abs($0.size.width - short) < 0.5 && abs($0.size.height - long) < 0.5 }
            ?? custom(points: size)
    }

    /// A custom size of `size` points (in portrait).
    public static func custom(points size: CGSize) -> MediaSize {
        custom(width: min(size.width, size.height), length: max(size.width, size.height))
    }

    /// A custom size `width` points across and `length` points along the feed, whichever is
    /// longer (a receipt cut shorter than its roll is wide stays that way round). Named as CUPS
    /// names custom sizes, `custom_80x120mm_80x120mm`: a PWG self-describing name a printer
    /// reads, in hundredths of a millimetre, IPP's unit for sizes.
    public static func custom(width: Double, length: Double) -> MediaSize {
        func mm(_ points: Double) -> String {
            let hundredths = (points / Length.pointsPerMillimetre * 100).rounded()
            return format(hundredths / 100)
        }
        let size = "\(mm(width))x\(mm(length))mm"
        return MediaSize(pwgName: "custom_\(size)_\(size)", size: CGSize(width: width, height: length), displayName: size)
    }

    private static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}

/// The sizes a printer takes between two corners, in points: its custom sizes, or the lengths
/// a roll printer cuts (`custom_min_`/`custom_max_`, `roll_min_`/`roll_max_` in IPP's
/// `media-supported`). Widths are across the feed, lengths (`height`) along it.
public struct MediaSizeRange: Hashable, Codable, Sendable {
    public var minimum: CGSize
    public var maximum: CGSize

    public init(minimum: CGSize, maximum: CGSize) { self.minimum = minimum; self.maximum = maximum }

    /// The range `media-supported` names give with `prefix` (`roll` or `custom`): the
    /// `<prefix>_min_` and `<prefix>_max_` entries (the widest of several).
    public init?(mediaNames names: [String], prefix: String) {
        func corner(_ which: String) -> [CGSize] {
            names.filter { $0.hasPrefix("\(prefix)_\(which)_") }.compactMap(MediaSize.dimensions(of:))
        }
        let mins = corner("min"), maxs = corner("max")
        guard !mins.isEmpty, !maxs.isEmpty else { return nil }
        minimum = CGSize(width: mins.map(\.width).min()!, height: mins.map(\.height).min()!)
        maximum = CGSize(width: maxs.map(\.width).max()!, height: maxs.map(\.height).max()!)
    }

    /// Whether a sheet `size` points falls in the range (to half a point, the rounding of
    /// hundredths of a millimetre).
    public func contains(_ size: CGSize) -> Bool {
        size.width >= minimum.width - 0.5 && size.width <= maximum.width + 0.5
            && size.height >= minimum.height - 0.5 && size.height <= maximum.height + 0.5
    }

    /// `length` held within the lengths of the range.
    public func clampedLength(_ length: Double) -> Double { min(max(length, minimum.height), maximum.height) }
}

/// The paper catalogue, read once from `Config/papers.tsv`.
public final class MediaCatalogue: Sendable {
    public static let shared = MediaCatalogue(papers: ConfigFiles.directory.flatMap { ConfigFiles.text(atPath: $0 + "/papers.tsv") })

    public let all: [MediaSize]
    /// Each size's PPD name (its first alias: A4, Letter, Env10), by PWG name.
    let ppdNames: [String: String]
    private let byName: [String: MediaSize]
    /// Why the catalogue is empty: the installation has no papers.tsv (`Installation.checkData`
    /// throws it at each door, before a job names a paper).
    package let dataError: PrintError?

    /// The catalogue of papers.tsv's `text`; empty, with `dataError`, when there is none.
    package init(papers text: String?) {
        var all: [MediaSize] = []
        var byName: [String: MediaSize] = [:]
        var ppdNames: [String: String] = [:]
        dataError = text == nil ? ConfigFiles.missing("papers.tsv") : nil
        let text = text ?? ""
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

/// Files from the `Config/` folder (`Installation.configDirectory` says where): data, not code.
public enum ConfigFiles {
    /// The folder the data files are read from; nil when no installation's is found.
    public static var directory: String? { Installation.configDirectory }

    /// The error for a data file the installation lacks.
    static func missing(_ name: String) -> PrintError {
        PrintError(.notAvailable, path: directory.map { $0 + "/" + name },
                   "swiftprint's data file Config/\(name) is missing: set SWIFTPRINT_CONFIG_DIR to the Config folder of its installation")
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
}
