import Foundation

/// How logical pages go onto sheets, by the names of their IPP/CUPS options (what cups-filters'
/// pdftopdf does). Every field may be left unset: unset is the neutral choice.
public struct SheetOptions: Hashable, Codable, Sendable {
    /// IPP `number-up-layout`: the order cells fill, read on the sheet held so that its pages
    /// are upright: lrtb is left to right, then top to bottom.
    public enum Layout: String, Codable, Sendable, CaseIterable {
        case lrtb, lrbt, rltb, rlbt, tblr, tbrl, btlr, btrl

        /// Whether pages fill a row before the next row (lr…, rl…) rather than a column first.
        var rowsFirst: Bool {
            switch self { case .lrtb, .lrbt, .rltb, .rlbt: true; case .tblr, .tbrl, .btlr, .btrl: false }
        }
        /// Whether rows run right to left.
        var rightToLeft: Bool {
            switch self { case .rltb, .rlbt, .tbrl, .btrl: true; case .lrtb, .lrbt, .tblr, .btlr: false }
        }
        /// Whether columns fill bottom to top.
        var bottomToTop: Bool {
            switch self { case .lrbt, .rlbt, .btlr, .btrl: true; case .lrtb, .rltb, .tblr, .tbrl: false }
        }
    }

    /// CUPS `page-border`: a frame around each page of an n-up sheet.
    public enum Border: String, Codable, Sendable, CaseIterable {
        case none, single, singleThick = "single-thick", double, doubleThick = "double-thick"
    }

    /// CUPS `page-set`: which sides of the output to print, for duplex by hand.
    public enum PageSet: String, Codable, Sendable, CaseIterable { case all, odd, even }

    /// IPP `number-up`: logical pages per side (1, 2, 3, 4, 6, 8, 9, 10, 12, 15, 16).
    public var numberUp: Int?
    public var layout: Layout?
    public var border: Border?
    public var pageSet: PageSet?
    /// IPP `output-order` reverse: the last sheet first.
    public var reverse: Bool?
    /// A booklet: pages two to a side, in the order that folds into a book.
    public var booklet: Bool?
    /// Pages per booklet signature (a multiple of 4); nil: the whole document is one.
    public var bookletSignature: Int?
    /// CUPS `mirror`: every side flipped left to right (for transfers).
    public var mirror: Bool?
    /// IPP `orientation-requested` 5 and 6 (reverse-landscape, reverse-portrait): every side
    /// turned half a turn.
    public var halfTurn: Bool?
    /// IPP `multiple-document-handling`/`collate`: copies as whole sets (default) or each side
    /// repeated.
    public var collate: Bool?

    public init() {}

    /// The counts `number-up` accepts.
    public static let numberUpCounts = [1, 2, 3, 4, 6, 8, 9, 10, 12, 15, 16]

    /// Whether anything here changes how pages go onto sheets.
    public var isNeutral: Bool {
        (numberUp ?? 1) == 1 && (border ?? Border.none) == Border.none && (pageSet ?? .all) == .all && reverse != true
            && booklet != true && mirror != true && halfTurn != true
    }

    /// Sets the option `name` (its IPP/CUPS name) from `value`; a bad value throws, naming it.
    mutating func set(_ name: String, _ value: String) throws {
        func bad(_ expected: String) -> PrintError { PrintError(.invalidOption, "\(name) must be \(expected), not \"\(value)\"") }
        let v = value.lowercased()
        switch name {
        case "number-up":
            guard let n = Int(v), Self.numberUpCounts.contains(n) else { throw bad(Self.numberUpCounts.map(String.init).joined(separator: ", ")) }
            numberUp = n
        case "number-up-layout":
            guard let l = Layout(rawValue: v) else { throw bad(Layout.allCases.map(\.rawValue).joined(separator: ", ")) }
            layout = l
        case "page-border":
            guard let b = Border(rawValue: v) else { throw bad(Border.allCases.map(\.rawValue).joined(separator: ", ")) }
            border = b
        case "page-set":
            guard let p = PageSet(rawValue: v) else { throw bad("all, odd or even") }
            pageSet = p
        case "output-order", "outputorder":
            switch v {
            case "normal": reverse = false
            case "reverse": reverse = true
            default: throw bad("normal or reverse")
            }
        case "booklet":
            switch v {
            case "on", "true", "yes", "1", "shuffle-only": booklet = true
            case "off", "false", "no", "0": booklet = false
            default: throw bad("on or off")
            }
        case "booklet-signature", "swiftprint-booklet-signature":
            guard let n = Int(v), n >= 4, n % 4 == 0 else { throw bad("a multiple of 4") }
            bookletSignature = n
        case "mirror":
            guard let on = JobOptions.bool(v) else { throw bad("true or false") }
            mirror = on
        case "collate":
            switch v {
            case "true", "on", "yes", "1": collate = true
            case "false", "off", "no", "0": collate = false
            default: throw bad("true or false")
            }
        case "multiple-document-handling":
            switch v {
            case "separate-documents-collated-copies", "single-document": collate = true
            case "separate-documents-uncollated-copies": collate = false
            default: throw bad("separate-documents-collated-copies or separate-documents-uncollated-copies")
            }
        default: break
        }
    }
}
