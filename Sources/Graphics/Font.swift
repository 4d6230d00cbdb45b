import CPango

/// A font as people write it, e.g. `DejaVu Sans Mono 10` or `Noto Serif Bold Italic 12`
/// (a pango font description: families, style words, size in points).
public struct Font: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The description, normalised by pango.
    public private(set) var name: String
    /// Size in points.
    public private(set) var pointSize: Double

    /// Parses a description; nil when it names no size and no family.
    public init?(_ description: String) {
        let desc = FontDescription(description)
        guard desc.hasFamily || desc.pointSize > 0 else { return nil }
        if desc.pointSize <= 0 { desc.pointSize = 10 }
        name = desc.string
        pointSize = desc.pointSize
    }

    /// The same font at another size.
    public func withSize(_ points: Double) -> Font {
        let desc = FontDescription(name)
        desc.pointSize = points
        var copy = self
        copy.name = desc.string
        copy.pointSize = points
        return copy
    }

    public static let monospace = Font("Monospace 10")!
    public static let sans = Font("Sans 10")!

    public var description: String { name }
}

/// Owns one PangoFontDescription.
package final class FontDescription {
    package let pointer: OpaquePointer

    package init(_ text: String) { pointer = pango_font_description_from_string(text) }

    deinit { pango_font_description_free(pointer) }

    package var hasFamily: Bool { pango_font_description_get_family(pointer) != nil }

    package var pointSize: Double {
        get { Double(pango_font_description_get_size(pointer)) / Double(PANGO_SCALE) }
        set { pango_font_description_set_size(pointer, Int32((newValue * Double(PANGO_SCALE)).rounded())) }
    }

    package var string: String {
        let c = pango_font_description_to_string(pointer)!
        defer { g_free(c) }
        return String(cString: c)
    }
}
