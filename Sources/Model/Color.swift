/// An sRGB colour with alpha, components 0…1.
public struct Color: Hashable, Codable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let gray = Color(white: 0.5)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 0.5, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)

    /// `#rgb`, `#rrggbb`, or a CSS basic colour name (black, white, gray, red, green, blue, …).
    public init?(parsing text: String) {
        let named: [String: Color] = [
            "black": .black, "white": .white, "gray": .gray, "grey": .gray, "red": .red, "green": .green,
            "blue": .blue, "navy": Color(red: 0, green: 0, blue: 0.5), "maroon": Color(red: 0.5, green: 0, blue: 0),
            "purple": Color(red: 0.5, green: 0, blue: 0.5), "teal": Color(red: 0, green: 0.5, blue: 0.5),
            "olive": Color(red: 0.5, green: 0.5, blue: 0), "silver": Color(white: 0.75),
        ]
        let t = text.lowercased()
        if let c = named[t] { self = c; return }
        guard t.hasPrefix("#") else { return nil }
        var hex = String(t.dropFirst())
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6, let v = UInt32(hex, radix: 16) else { return nil }
        self.init(red: Double(v >> 16 & 0xFF) / 255, green: Double(v >> 8 & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
    }
}
