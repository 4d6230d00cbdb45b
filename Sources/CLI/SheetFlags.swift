import ArgumentParser
import SwiftPrint

/// How pages go onto sheets (`SheetLayoutOptions`): the same names work as `lp -o name=value` on
/// the swiftprint queue.
struct SheetFlags: JobFlagGroup {
    static let declarations = SheetLayoutOptions.all
    typealias O = SheetLayoutOptions
    @Option(name: O.numberUp.flag, help: O.numberUp.argumentHelp) var numberUp: String?
    @Option(name: O.layout.flag, help: O.layout.argumentHelp) var numberUpLayout: String?
    @Option(name: O.border.flag, help: O.border.argumentHelp) var pageBorder: String?
    @Option(name: O.sides.flag, help: O.sides.argumentHelp) var sides: String?
    @Option(name: O.pageSet.flag, help: O.pageSet.argumentHelp) var pageSet: String?
    @Option(name: O.outputOrder.flag, help: O.outputOrder.argumentHelp) var outputOrder: String?
    @Flag(name: O.booklet.flag, help: O.booklet.argumentHelp) var booklet = false
    @Option(name: O.bookletSignature.flag, help: O.bookletSignature.argumentHelp) var bookletSignature: String?
    @Flag(name: O.mirror.flag, help: O.mirror.argumentHelp) var mirror = false
    @Flag(name: O.collate.flag, inversion: .prefixedNo, help: O.collate.argumentHelp) var collate = true
}
