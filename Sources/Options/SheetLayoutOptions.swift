import Foundation
import PrintModel

/// How pages go onto sheets, named after their IPP/CUPS options (cups-filters' pdftopdf set).
public enum SheetLayoutOptions {
    public static let numberUp = JobOption<Int>(
        "number-up", help: "Pages per side: 1, 2, 3, 4, 6, 8, 9, 10, 12, 15 or 16.", valueName: "n",
        expects: SheetOptions.numberUpCounts.map(String.init).joined(separator: ", "), example: "4",
        default: .unset("1 (one page a side)"),
        valid: { SheetOptions.numberUpCounts.contains($0) }) { $0.info.sheets.numberUp = $1 }

    public static let layout = JobOption<SheetOptions.Layout>(
        "number-up-layout", help: "Order of the pages on a side: lrtb, lrbt, rltb, rlbt, tblr, tbrl, btlr, btrl.",
        valueName: "order", expects: SheetOptions.Layout.allCases.map(\.rawValue).joined(separator: ", "), example: "tblr",
        default: .unset("lrtb")
    ) { $0.info.sheets.layout = $1 }

    public static let border = JobOption<SheetOptions.Border>(
        "page-border", help: "Frame each page of an n-up side: none, single, single-thick, double, double-thick.",
        valueName: "style", expects: SheetOptions.Border.allCases.map(\.rawValue).joined(separator: ", "), example: "double",
        default: .unset("none")
    ) { $0.info.sheets.border = $1 }

    public static let sides = JobOption<PrintInfo.Duplex>(
        "sides", aliases: ["Duplex"],
        help: "one-sided, two-sided-long-edge or two-sided-short-edge: two-sided output has an even number of sides and each document starts on a front.",
        valueName: "sides", expects: "one-sided, two-sided-long-edge or two-sided-short-edge", example: "two-sided-long-edge",
        default: .unset("one-sided, unless the queue's or the printer's own default says otherwise")
    ) { $0.info.duplex = $1 }

    public static let pageSet = JobOption<SheetOptions.PageSet>(
        "page-set", help: "all, odd or even: the sides to print (duplex by hand).", valueName: "set",
        expects: "all, odd or even", example: "odd", default: .unset("all")) { $0.info.sheets.pageSet = $1 }

    public static let outputOrder = JobOption<OutputOrder>(
        "output-order", aliases: ["OutputOrder"], help: "normal or reverse (last sheet first).", valueName: "order",
        expects: "normal or reverse", example: "reverse", default: .unset("normal")) { $0.info.sheets.reverse = $1 == .reverse }

    public static let booklet = JobOption<Bool>(
        "booklet", form: .flag, help: "Print a booklet: two pages a side, in folding order (print two-sided, short edge).",
        expects: "on or off", example: "on", default: .unset("off"),
        parse: { $0.lowercased() == "shuffle-only" ? true : Bool(optionText: $0) }) { $0.info.sheets.booklet = $1 }

    public static let bookletSignature = JobOption<Int>(
        "booklet-signature", aliases: ["swiftprint-booklet-signature"],
        help: "Pages per booklet signature, a multiple of 4.", valueName: "n",
        expects: "a multiple of 4", example: "8", default: .unset("the whole document in one signature"), valid: { $0 >= 4 && $0 % 4 == 0 }) { $0.info.sheets.bookletSignature = $1 }

    public static let mirror = JobOption<Bool>(
        "mirror", form: .flag, help: "Flip every side left to right (iron-on transfers).",
        expects: "true or false", example: "true", default: .unset("off")) { $0.info.sheets.mirror = $1 }

    public static let collate = JobOption<Bool>(
        "collate", form: .invertedFlag, help: "Copies as whole sets, or each side repeated.",
        expects: "true or false", example: "false", default: .unset("on (copies as whole sets)")) { $0.info.sheets.collate = $1 }

    /// IPP's way of saying `collate`.
    public static let documentHandling = JobOption<Bool>(
        "multiple-document-handling", sources: .printJob, help: "Copies collated or not (IPP).",
        expects: "separate-documents-collated-copies or separate-documents-uncollated-copies",
        example: "separate-documents-uncollated-copies", default: .unset("separate-documents-collated-copies"),
        parse: {
            switch $0.lowercased() {
            case "separate-documents-collated-copies", "single-document": true
            case "separate-documents-uncollated-copies": false
            default: nil
            }
        }) { $0.info.sheets.collate = $1 }

    public static let all: [any DeclaredOption] =
        [numberUp, layout, border, sides, pageSet, outputOrder, booklet, bookletSignature, mirror, collate, documentHandling]
}

/// IPP `output-order`.
public enum OutputOrder: String, Sendable, CaseIterable, OptionValue { case normal, reverse }
