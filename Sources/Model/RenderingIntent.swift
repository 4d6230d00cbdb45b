/// How colours outside the printer's gamut are brought into it: IPP's `print-rendering-intent`
/// keywords, as ICC's four intents, with or without black point compensation.
public enum RenderingIntent: String, Sendable, Codable, CaseIterable {
    /// The printer's choice: relative colorimetric with black point compensation (what most
    /// printers and cups-filters use for photos and documents alike).
    case auto
    case perceptual
    case relative
    case relativeBPC = "relative-bpc"
    case saturation
    case absolute

    /// PDF's name for it (its `ri` operator's operand), or nil for `auto`, which a PDF says by
    /// naming none. PDF has no word for black point compensation before PDF 2.0: `relative` and
    /// `relative-bpc` are both RelativeColorimetric.
    public var pdfName: String? {
        switch self {
        case .auto: nil
        case .perceptual: "Perceptual"
        case .relative, .relativeBPC: "RelativeColorimetric"
        case .saturation: "Saturation"
        case .absolute: "AbsoluteColorimetric"
        }
    }
}
