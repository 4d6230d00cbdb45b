import ArgumentParser
import SwiftPrint

/// Plain text (`TextOptions`).
struct TextFlags: JobFlagGroup {
    static let declarations = TextOptions.all
    typealias O = TextOptions
    @Option(name: O.font.flag, help: O.font.argumentHelp) var font: String?
    @Option(name: O.color.flag, help: O.color.argumentHelp) var color: String?
    @Option(name: O.alignment.flag, help: O.alignment.argumentHelp) var alignment: String?
    @Option(name: O.lineBreak.flag, help: O.lineBreak.argumentHelp) var lineBreak: String?
    @Flag(name: O.wrap.flag, inversion: .prefixedNo, help: O.wrap.argumentHelp) var wrap = true
    @Option(name: O.columns.flag, help: O.columns.argumentHelp) var columns: String?
    @Option(name: O.cpi.flag, help: O.cpi.argumentHelp) var cpi: String?
    @Option(name: O.lpi.flag, help: O.lpi.argumentHelp) var lpi: String?
    @Option(name: O.tabWidth.flag, help: O.tabWidth.argumentHelp) var tabWidth: String?
    @Flag(name: O.lineNumbers.flag, help: O.lineNumbers.argumentHelp) var lineNumbers = false
    @Option(name: O.encoding.flag, help: O.encoding.argumentHelp) var encoding: String?
}
