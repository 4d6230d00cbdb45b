import Foundation
import Logging
import HandlerSupport

/// Collects the characters no installed font could draw and says, once per formatter, which
/// Debian packages would draw them.
final class FontCoverage {
    private(set) var unknownGlyphCount = 0
    private var missingScripts: Set<String> = []
    private var reported: Set<String> = []

    func record(_ characters: [Unicode.Scalar]) {
        unknownGlyphCount += characters.count
        for c in characters { missingScripts.insert(Self.group(of: c)) }
    }

    /// Logs one warning naming what is missing and what to install, if anything new is.
    func report(to logger: Logger, file: String) {
        let new = missingScripts.subtracting(reported)
        guard !new.isEmpty else { return }
        reported.formUnion(new)
        let packages = Set(new.map(Self.package(for:))).sorted()
        logger.warning("\(file): no installed font has glyphs for \(new.sorted().joined(separator: ", ")); they print as boxes. Install \(packages.joined(separator: " ")) (apt-get install \(packages.joined(separator: " ")))")
    }

    /// A script name, or "emoji"/"symbols" for characters without one.
    static func group(of c: Unicode.Scalar) -> String {
        if c.properties.isEmojiPresentation || (c.value >= 0x1F000 && c.value <= 0x1FAFF) { return "emoji" }
        return scriptName(of: c) ?? "symbols"
    }

    /// The Debian package whose fonts cover `group`.
    static func package(for group: String) -> String {
        switch group {
        case "emoji": return "fonts-noto-color-emoji"
        case "Hani", "Hira", "Kana", "Hang", "Bopo": return "fonts-noto-cjk"
        default: return "fonts-noto-core"
        }
    }
}
