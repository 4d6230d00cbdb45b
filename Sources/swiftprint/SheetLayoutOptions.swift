import ArgumentParser
import SwiftPrint

/// How pages go onto sheets, named after their IPP/CUPS options (cups-filters' pdftopdf set):
/// the same names work as `lp -o name=value` on the swiftprint queue.
struct SheetLayoutOptions: ParsableArguments {
    @Option(name: .customLong("number-up"), help: ArgumentHelp("Pages per side: 1, 2, 3, 4, 6, 8, 9, 10, 12, 15 or 16.", valueName: "n"))
    var numberUp: Int?

    @Option(name: .customLong("number-up-layout"), help: ArgumentHelp("Order of the pages on a side: lrtb (default), lrbt, rltb, rlbt, tblr, tbrl, btlr, btrl.", valueName: "order"))
    var numberUpLayout: String?

    @Option(name: .customLong("page-border"), help: ArgumentHelp("Frame each page of an n-up side: none, single, single-thick, double, double-thick.", valueName: "style"))
    var pageBorder: String?

    @Option(name: .customLong("sides"), help: ArgumentHelp("one-sided, two-sided-long-edge or two-sided-short-edge: two-sided output has an even number of sides and each document starts on a front.", valueName: "sides"))
    var sides: String?

    @Option(name: .customLong("page-set"), help: ArgumentHelp("all, odd or even: the sides to print (duplex by hand).", valueName: "set"))
    var pageSet: String?

    @Option(name: .customLong("output-order"), help: ArgumentHelp("normal or reverse (last sheet first).", valueName: "order"))
    var outputOrder: String?

    @Flag(help: "Print a booklet: two pages a side, in folding order (print two-sided, short edge).")
    var booklet = false

    @Option(name: .customLong("booklet-signature"), help: ArgumentHelp("Pages per booklet signature, a multiple of 4 (default: one signature).", valueName: "n"))
    var bookletSignature: Int?

    @Flag(help: "Flip every side left to right (iron-on transfers).")
    var mirror = false

    @Flag(inversion: .prefixedNo, help: "Copies as whole sets (default), or each side repeated.")
    var collate = true

    /// These settings by their IPP/CUPS names, for `JobOptions` (which checks them).
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if let numberUp { o.append(("number-up", String(numberUp))) }
        if let numberUpLayout { o.append(("number-up-layout", numberUpLayout)) }
        if let pageBorder { o.append(("page-border", pageBorder)) }
        if let sides { o.append(("sides", sides)) }
        if let pageSet { o.append(("page-set", pageSet)) }
        if let outputOrder { o.append(("output-order", outputOrder)) }
        if booklet { o.append(("booklet", "on")) }
        if let bookletSignature { o.append(("booklet-signature", String(bookletSignature))) }
        if mirror { o.append(("mirror", "true")) }
        if !collate { o.append(("collate", "false")) }
        return o
    }
}
