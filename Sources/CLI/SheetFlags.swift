import ArgumentParser
import SwiftPrint

/// How pages go onto sheets (`SheetLayoutOptions`): the same names work as `lp -o name=value` on
/// the swiftprint queue.
struct SheetFlags: JobFlagGroup {
    static let declarations = SheetLayoutOptions.all
    typealias O = SheetLayoutOptions
    @Option(name: O.numberUp.flag, help: O.numberUp.argumentHelp) var numberUp: Int?
    @Option(name: O.layout.flag, help: O.layout.argumentHelp) var numberUpLayout: SheetOptions.Layout?
    @Option(name: O.border.flag, help: O.border.argumentHelp) var pageBorder: SheetOptions.Border?
    @Option(name: O.sides.flag, help: O.sides.argumentHelp) var sides: PrintInfo.Duplex?
    @Option(name: O.pageSet.flag, help: O.pageSet.argumentHelp) var pageSet: SheetOptions.PageSet?
    @Option(name: O.outputOrder.flag, help: O.outputOrder.argumentHelp) var outputOrder: OutputOrder?
    @Flag(name: O.booklet.flag, help: O.booklet.argumentHelp) var booklet = false
    @Option(name: O.bookletSignature.flag, help: O.bookletSignature.argumentHelp) var bookletSignature: Int?
    @Flag(name: O.mirror.flag, help: O.mirror.argumentHelp) var mirror = false
    @Flag(name: O.collate.flag, inversion: .prefixedNo, help: O.collate.argumentHelp) var collate = true
}
