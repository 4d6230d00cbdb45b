import Foundation
import PrintGraphics
import PrintModel

/// A value an option takes, read from the text people write: `lp -o name=TEXT`, `--name TEXT`,
/// a PPD default. The CLI reads its flags through the same initialiser, so a value means the same
/// thing wherever it is written.
public protocol OptionValue: Sendable, Equatable {
    init?(optionText: String)
    /// The words it takes, when they are few enough to list (keywords, paper names), for shell
    /// completion and the manual; empty for numbers, lengths and free text.
    static var keywords: [String] { get }
}

extension OptionValue {
    public static var keywords: [String] { [] }
}

extension String: OptionValue {
    public init?(optionText: String) { self = optionText }
}

extension Int: OptionValue {
    public init?(optionText: String) { self.init(optionText.trimmingCharacters(in: .whitespaces)) }
}

extension Double: OptionValue {
    public init?(optionText: String) {
        guard let v = Double(optionText.trimmingCharacters(in: .whitespaces)), v.isFinite else { return nil }
        self = v
    }

    /// As people write it in an option: `300`, not `300.0`.
    var writtenAsOption: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

extension Bool: OptionValue {
    /// CUPS's booleans: `true`, `yes`, `on`, `1`, or the name alone (`lp -o booklet`); `false`,
    /// `no`, `off`, `0`.
    public init?(optionText: String) {
        switch optionText.lowercased() {
        case "", "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }
}

extension OptionValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public static var keywords: [String] { allCases.map(\.rawValue) }
}

extension OptionValue where Self: RawRepresentable, RawValue == String {
    /// A keyword, as written or in lower case (`single-thick`, `LRTB`).
    public init?(optionText: String) {
        guard let value = Self(rawValue: optionText) ?? Self(rawValue: optionText.lowercased()) else { return nil }
        self = value
    }
}

extension MediaSize: OptionValue {
    /// The catalogue's sizes by their short names (`A4`, `Letter`, `Env10`).
    public static var keywords: [String] { catalogue.map(\.ppdName) }

    /// A size by name (`A4`, `iso_a5_148x210mm`) or dimensions (`210x297mm`); a media list
    /// (`A4,tray-1`) names the size first.
    public init?(optionText: String) {
        let size = optionText.split(separator: ",").first.map(String.init) ?? optionText
        guard let media = MediaSize.named(size) else { return nil }
        self = media
    }
}

extension PageRanges: OptionValue {
    public init?(optionText: String) { self.init(optionText) }
}

extension EdgeInsets: OptionValue {
    /// One to four CSS lengths (top, right, bottom, left).
    public init?(optionText: String) { self.init(cssLengths: optionText) }
}

extension Font: OptionValue {
    public init?(optionText: String) { self.init(optionText) }
}

extension Color: OptionValue {
    public init?(optionText: String) { self.init(parsing: optionText) }
}

/// A length people write (`10mm`, `0.5in`, `12`), in points.
public struct Points: OptionValue, Hashable, Codable {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public init?(optionText: String) {
        guard let v = Length.points(from: optionText) else { return nil }
        value = v
    }
}

extension PrintInfo.OutputType: OptionValue {}
extension SheetOptions.Layout: OptionValue {}
extension SheetOptions.Border: OptionValue {}
extension SheetOptions.PageSet: OptionValue {}
extension PrintScaling: OptionValue {}
extension ContentPosition: OptionValue {}
extension TextAlignment: OptionValue {}
extension LineBreakMode: OptionValue {}

extension PrintInfo.Duplex: OptionValue {
    public static var keywords: [String] { ["one-sided", "two-sided-long-edge", "two-sided-short-edge"] }

    /// IPP `sides` keywords and the PPD's `Duplex` choices.
    public init?(optionText: String) {
        switch optionText.lowercased() {
        case "one-sided", "none": self = .none
        case "two-sided-long-edge", "duplexnotumble": self = .longEdge
        case "two-sided-short-edge", "duplextumble": self = .shortEdge
        default: return nil
        }
    }
}
