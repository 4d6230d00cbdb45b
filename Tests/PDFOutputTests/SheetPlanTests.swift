import Foundation
@testable import PDFOutput
import PDFObjects
import PrintModel
import Testing

/// The sheet planner alone: which logical page goes on which side, in which cell, which way up.
/// Pure arithmetic, so these run in milliseconds without a PDF, a font or a process.
@Suite struct SheetPlanTests {
    static let letter = CGSize(width: 612, height: 792)
    static func pages(_ count: Int, _ size: CGSize = letter) -> [CGRect] { Array(repeating: CGRect(origin: .zero, size: size), count: count) }

    static func plan(_ count: Int, _ options: SheetOptions = SheetOptions(), starts: Set<Int> = [], twoSided: Bool = false,
                     copies: Int = 1, size: CGSize = letter) -> SheetPlan {
        SheetPlan(pages: pages(count, size), documentStarts: starts, paper: letter, options: options, twoSided: twoSided, copies: copies)
    }

    /// Each side's pages, in the order they are placed.
    static func layout(_ plan: SheetPlan) -> [[Int]] { plan.sides.map { $0.items.map(\.page) } }

    @Test func oneToASideKeepsEachPageAsItIs() {
        let plan = Self.plan(3)
        #expect(Self.layout(plan) == [[0], [1], [2]])
        #expect(plan.sides.allSatisfy { $0.size == Self.letter && $0.items[0].transform == .identity })
    }

    /// Page ranges choose the pages before n-up: 96 pages four to a side are 24 sides (pdftopdf,
    /// which ranges after, prints 26 for the same job from page 5).
    @Test func ninetySixPagesFourUpAreTwentyFourSides() {
        var options = SheetOptions()
        options.numberUp = 4
        let plan = Self.plan(96, options)
        #expect(plan.sides.count == 24)
        #expect(Self.layout(plan)[0] == [0, 1, 2, 3] && Self.layout(plan)[23] == [92, 93, 94, 95])
        // Left to right, then top to bottom: page 0 top left, page 3 bottom right (PDF space: y up).
        let corners = plan.sides[0].items.map { $0.corners[0] }
        #expect(corners[0].x < corners[1].x && corners[0].y > corners[2].y && corners[3].x > corners[2].x)
    }

    /// A new document starts a new side, and printed two-sided a front: a blank back comes between.
    @Test func aDocumentStartsOnAFront() {
        var options = SheetOptions()
        options.numberUp = 2
        #expect(Self.layout(Self.plan(5, options, starts: [2], twoSided: true)) == [[0, 1], [], [2, 3], [4]])
        #expect(Self.layout(Self.plan(5, options, starts: [2])) == [[0, 1], [2, 3], [4]])
    }

    /// Five pages make a booklet of eight: sheet 1 holds 8 and 1 on its front (8 blank) and 2 and
    /// 7 on its back; sheet 2 holds 6 and 3, then 4 and 5.
    @Test func aBookletFoldsInOrder() {
        var options = SheetOptions()
        options.booklet = true
        let plan = Self.plan(5, options)
        #expect(Self.layout(plan) == [[0], [1], [2], [3, 4]])
        // On a portrait sheet the pages run along its long side, the first cell the upper half:
        // page 1 (the second cell of the first front) is on the lower half, page 2 (the first
        // cell of its back) on the upper.
        let half = Self.letter.height / 2
        #expect(plan.sides[0].items[0].corners.allSatisfy { $0.y <= half + 1 }, "\(plan.sides[0].items[0].corners)")
        #expect(plan.sides[1].items[0].corners.allSatisfy { $0.y >= half - 1 }, "\(plan.sides[1].items[0].corners)")
        // Signatures of four pages: pages 1-4 fold as one, page 5 alone in the next.
        options.bookletSignature = 4
        #expect(Self.layout(Self.plan(5, options)) == [[3, 0], [1, 2], [4], []])
    }

    @Test func pageSetKeepsOddOrEvenSides() {
        var options = SheetOptions()
        options.pageSet = .odd
        #expect(Self.layout(Self.plan(5, options)) == [[0], [2], [4]])
        options.pageSet = .even
        #expect(Self.layout(Self.plan(5, options)) == [[1], [3]])
    }

    @Test func copiesAreSetsOrRepeatedSheets() {
        #expect(Self.layout(Self.plan(2, copies: 2)) == [[0], [1], [0], [1]])
        var options = SheetOptions()
        options.collate = false
        #expect(Self.layout(Self.plan(2, options, copies: 2)) == [[0], [0], [1], [1]])
        // Two-sided, uncollated: each sheet (front and back) repeated, never a side alone.
        #expect(Self.layout(Self.plan(3, options, twoSided: true, copies: 2)) == [[0], [1], [0], [1], [2], [], [2], []])
    }

    /// Reverse order: the last sheet first, each sheet's front still before its back.
    @Test func reverseOrderKeepsFrontsBeforeBacks() {
        var options = SheetOptions()
        options.reverse = true
        #expect(Self.layout(Self.plan(3, options, twoSided: true)) == [[2], [], [0], [1]])
        #expect(Self.layout(Self.plan(3, options)) == [[2], [1], [0]])
    }

    @Test func mirrorAndHalfTurnMoveEverySide() {
        var options = SheetOptions()
        options.mirror = true
        let mirrored = Self.plan(1, options).sides[0].items[0].transform
        #expect(mirrored == PDFMatrix(a: -1, b: 0, c: 0, d: 1, e: Self.letter.width, f: 0))
        options = SheetOptions()
        options.halfTurn = true
        let turned = Self.plan(1, options).sides[0].items[0].transform
        #expect(turned == PDFMatrix(a: -1, b: 0, c: 0, d: -1, e: Self.letter.width, f: Self.letter.height))
    }

    /// The grid that prints a page largest: 2-up portrait pages run along the sheet's long side
    /// (the reading frame turned); 4-up stays two by two; a landscape page in a portrait cell is
    /// turned a quarter, a portrait one never.
    @Test func cellsAreChosenForThePagesShape() {
        let two = SheetPlan.grid(count: 2, paper: Self.letter, page: Self.letter)
        #expect(two.turned && two.columns * two.rows == 2)
        let four = SheetPlan.grid(count: 4, paper: Self.letter, page: Self.letter)
        #expect(!four.turned && four.columns == 2 && four.rows == 2)
        let cell = CGRect(x: 0, y: 0, width: 300, height: 400)
        #expect(SheetPlan.fit(CGRect(x: 0, y: 0, width: 792, height: 612), in: cell).b != 0)
        #expect(SheetPlan.fit(CGRect(x: 0, y: 0, width: 612, height: 792), in: cell).b == 0)
    }

    /// The photo grid is one of the plan's layouts: pages four to a side in equal cells of the
    /// printable area, 9 points apart unless the job says, the first cell at its top left.
    @Test func thePhotoGridFillsCellsOfThePrintableArea() {
        var options = SheetOptions()
        options.photosPerSheet = 4
        let area = CGRect(x: 18, y: 18, width: 576, height: 756)
        let plan = SheetPlan(pages: Self.pages(5, CGSize(width: 283.5, height: 373.5)), documentStarts: [], paper: Self.letter,
                             options: options, twoSided: false, copies: 1, printableArea: area)
        #expect(Self.layout(plan) == [[0, 1, 2, 3], [4]])
        let cell = SheetPlan.photoCell(0, count: 4, in: area)
        #expect(cell == CGRect(x: 18, y: 18, width: 283.5, height: 373.5))
        // The first page's box lands on that cell (PDF space counts from the bottom).
        #expect(plan.sides[0].items[0].corners[3] == CGPoint(x: 18, y: Self.letter.height - 18))
        #expect(abs((SheetPlan.photoCell(3, count: 4, gutter: 0, in: area)?.minX ?? 0) - 306) < 1e-9)
        #expect(SheetPlan.photoCell(0, count: 7, in: area) == nil)
        #expect(!options.isNeutral && SheetOptions().isPhotoGrid == false)
    }

    /// n-up reading orders, cell by cell on a 2 × 2 grid.
    @Test(arguments: [(SheetOptions.Layout.lrtb, [(0, 0), (1, 0), (0, 1), (1, 1)]), (.tblr, [(0, 0), (0, 1), (1, 0), (1, 1)]),
                      (.rltb, [(1, 0), (0, 0), (1, 1), (0, 1)]), (.btlr, [(0, 1), (0, 0), (1, 1), (1, 0)])])
    func layoutsFillCellsInTheirOrder(layout: SheetOptions.Layout, cells: [(Int, Int)]) {
        let got = (0..<4).map { SheetPlan.position($0, columns: 2, rows: 2, layout: layout) }
        #expect(got.map(\.column) == cells.map(\.0) && got.map(\.row) == cells.map(\.1), "\(layout): \(got)")
    }
}
