import Foundation

/// How logical pages go onto sheets, by the names of their IPP/CUPS options (what cups-filters'
/// pdftopdf does). Every field may be left unset: unset is the neutral choice.
public struct SheetOptions: Hashable, Codable, Sendable, EmptyInitializable {
    /// IPP `number-up-layout`: the order cells fill, read on the sheet held so that its pages
    /// are upright: lrtb is left to right, then top to bottom.
    public enum Layout: String, Codable, Sendable, CaseIterable {
        case lrtb, lrbt, rltb, rlbt, tblr, tbrl, btlr, btrl

        /// Whether pages fill a row before the next row (lr…, rl…) rather than a column first.
        package var rowsFirst: Bool {
            switch self { case .lrtb, .lrbt, .rltb, .rlbt: true; case .tblr, .tbrl, .btlr, .btrl: false }
        }
        /// Whether rows run right to left.
        package var rightToLeft: Bool {
            switch self { case .rltb, .rlbt, .tbrl, .btrl: true; case .lrtb, .lrbt, .tblr, .btlr: false }
        }
        /// Whether columns fill bottom to top.
        package var bottomToTop: Bool {
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
    /// The photo grid: this many pages to a side in equal cells (`photoGridCounts`), each drawn
    /// at its cell's size; it takes the place of n-up.
    public var photosPerSheet: Int?
    /// Points between the photo grid's cells; nil: 9.
    public var photoGutter: Double?

    public init() {}

    /// The counts `number-up` accepts.
    public static let numberUpCounts = [1, 2, 3, 4, 6, 8, 9, 10, 12, 15, 16]

    /// The counts the photo grid takes, and each one's columns and rows on a portrait sheet
    /// (turned for a landscape one).
    public static let photoGridShapes: [Int: (columns: Int, rows: Int)] =
        [1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 15: (3, 5), 16: (4, 4), 20: (4, 5)]
    public static var photoGridCounts: [Int] { photoGridShapes.keys.sorted() }

    /// Whether the job is a photo grid of more than one cell.
    public var isPhotoGrid: Bool { (photosPerSheet ?? 1) > 1 }

    /// Whether anything here changes how pages go onto sheets: whether these options, with
    /// their neutral values unset, are all unset. A field added to this struct changes sheets
    /// whenever it is set, until it says here which of its values are neutral or that it acts
    /// only beside another: it cannot be forgotten by this test.
    public var isNeutral: Bool {
        var s = self
        if s.numberUp == 1 { s.numberUp = nil }
        if s.border == Border.none { s.border = nil }
        if s.pageSet == .all { s.pageSet = nil }
        if s.reverse == false { s.reverse = nil }
        if s.booklet == false { s.booklet = nil }
        if s.mirror == false { s.mirror = nil }
        if s.halfTurn == false { s.halfTurn = nil }
        if s.photosPerSheet == 1 { s.photosPerSheet = nil }
        // These act only beside another: the order of n-up cells, a booklet's signatures, the
        // photo grid's gutter, and collation (which the job weighs with its copies).
        s.layout = nil
        s.bookletSignature = nil
        s.photoGutter = nil
        s.collate = nil
        return s == SheetOptions()
    }
}
