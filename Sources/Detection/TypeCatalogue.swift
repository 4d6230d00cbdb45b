import Foundation
import PrintModel

/// A content type: a Uniform Type Identifier with what it conforms to, its MIME types and
/// file-name extensions (Config/types.tsv).
public struct ContentType: Hashable, Sendable {
    public let identifier: String
    /// The types it directly conforms to: public.jpeg → public.image.
    public let conformsTo: [String]
    public let mimeTypes: [String]
    public let extensions: [String]
    public let description: String
    /// An administrator's converter to PDF: argv with {in} and {out}; nil for most types.
    public let converter: [String]?
}

/// Every content type swiftprint knows, from `Config/types.tsv`, then `/etc/swiftprint/types.tsv`
/// and `~/.config/swiftprint/types.tsv`, where a line for a known UTI replaces it.
public struct TypeCatalogue: Sendable {
    public private(set) var types: [String: ContentType] = [:]
    private var byMIME: [String: String] = [:]
    private var byExtension: [String: String] = [:]
    /// Types in the order they were read, for listings.
    public private(set) var order: [String] = []

    /// The catalogue read from the configuration files.
    public static let standard: TypeCatalogue = {
        var files = [ConfigFiles.directory.map { $0 + "/types.tsv" }, "/etc/swiftprint/types.tsv"]
        let env = ProcessInfo.processInfo.environment
        let configHome = env["XDG_CONFIG_HOME"] ?? env["HOME"].map { $0 + "/.config" }
        files.append(configHome.map { $0 + "/swiftprint/types.tsv" })
        var catalogue = TypeCatalogue()
        for case let path? in files {
            if let text = ConfigFiles.text(atPath: path) { catalogue.add(tsv: text) }
        }
        return catalogue
    }()

    public init() {}

    /// Adds the lines of a types file; a UTI already known is replaced.
    ///
    /// Split and trimmed as UTF-8 bytes: Foundation's `trimmingCharacters` bridges every field
    /// through NSString, which made this 40-line file ~2 ms of every run's start-up.
    public mutating func add(tsv text: String) {
        for var line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard line.first != UInt8(ascii: "#") else { continue }
            let f = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map(Self.trimmed)
            guard let uti = f.first, !uti.isEmpty else { continue }
            func list(_ i: Int, lowercase: Bool = true) -> [String] {
                guard i < f.count else { return [] }
                return f[i].utf8.split(separator: UInt8(ascii: ",")).map { let v = Self.trimmed($0); return lowercase ? v.lowercased() : v }
                    .filter { !$0.isEmpty }
            }
            let type = ContentType(identifier: uti, conformsTo: list(1, lowercase: false),
                                   mimeTypes: list(2), extensions: list(3),
                                   description: f.count > 4 ? f[4] : uti,
                                   converter: f.count > 5 && !f[5].isEmpty ? f[5].split(separator: " ").map(String.init) : nil)
            if types[uti] == nil { order.append(uti) }
            types[uti] = type
            for m in type.mimeTypes { byMIME[m] = uti }
            for e in type.extensions { byExtension[e] = uti }
        }
    }

    /// The field without the spaces and tabs around it: what `trimmingCharacters(in: .whitespaces)`
    /// removes (tab and Unicode's space separators).
    private static func trimmed(_ bytes: some Collection<UInt8>) -> String {
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
        func blank(_ c: Unicode.Scalar) -> Bool {
            c == " " || c == "\t" || (c.value > 0x7F && c.properties.generalCategory == .spaceSeparator)
        }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else { return "" }
        return String(scalars[first...last])
    }

    public func type(_ identifier: String) -> ContentType? { types[identifier] }
    public func type(forMIME mime: String) -> ContentType? { byMIME[mime.lowercased()].flatMap { types[$0] } }
    public func type(forExtension ext: String) -> ContentType? { byExtension[ext.lowercased()].flatMap { types[$0] } }

    /// The type and everything it conforms to, most specific first, each once:
    /// public.jpeg, public.image, public.data, public.content.
    public func conformanceChain(of identifier: String) -> [String] {
        var chain: [String] = []
        var queue = [identifier]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard !chain.contains(next) else { continue }
            chain.append(next)
            queue += types[next]?.conformsTo ?? []
        }
        return chain
    }

    /// Whether `identifier` is `other` or conforms to it.
    public func conforms(_ identifier: String, to other: String) -> Bool {
        conformanceChain(of: identifier).contains(other)
    }
}
