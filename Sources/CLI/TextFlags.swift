import ArgumentParser
import SwiftPrint

/// Plain text (`TextOptions`).
struct TextFlags: JobFlagGroup {
    static let declarations = TextOptions.all
    typealias O = TextOptions
    @Option(name: O.font.flag, help: O.font.argumentHelp) var font: Font?
    @Option(name: O.color.flag, help: O.color.argumentHelp) var color: Color?
    @Option(name: O.alignment.flag, help: O.alignment.argumentHelp) var alignment: TextAlignment?
    @Option(name: O.lineBreak.flag, help: O.lineBreak.argumentHelp) var lineBreak: LineBreakMode?
    @Flag(name: O.wrap.flag, inversion: .prefixedNo, help: O.wrap.argumentHelp) var wrap = true
    @Option(name: O.columns.flag, help: O.columns.argumentHelp) var columns: Int?
    @Option(name: O.cpi.flag, help: O.cpi.argumentHelp) var cpi: Double?
    @Option(name: O.lpi.flag, help: O.lpi.argumentHelp) var lpi: Double?
    @Option(name: O.tabWidth.flag, help: O.tabWidth.argumentHelp) var tabWidth: Int?
    @Flag(name: O.lineNumbers.flag, help: O.lineNumbers.argumentHelp) var lineNumbers = false
    @Option(name: O.encoding.flag, help: O.encoding.argumentHelp) var encoding: String?
}
