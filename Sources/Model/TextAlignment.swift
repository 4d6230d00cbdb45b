/// How lines of text sit between the margins.
public enum TextAlignment: String, Codable, Sendable, CaseIterable { case left, center, right, justified }
