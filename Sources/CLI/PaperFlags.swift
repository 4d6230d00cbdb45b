import ArgumentParser
import SwiftPrint

/// Paper and job flags (`PaperOptions`).
struct PaperFlags: JobFlagGroup {
    static let declarations = PaperOptions.all
    @Option(name: PaperOptions.media.flag, help: PaperOptions.media.argumentHelp) var media: MediaSize?
    @Option(name: PaperOptions.orientation.flag, help: PaperOptions.orientation.argumentHelp) var orientation: OrientationRequested?
    @Option(name: PaperOptions.pageRanges.flag, help: PaperOptions.pageRanges.argumentHelp) var pageRanges: PageRanges?
    @Option(name: PaperOptions.copies.flag, help: PaperOptions.copies.argumentHelp) var copies: Int?
    @Option(name: PaperOptions.margins.flag, help: PaperOptions.margins.argumentHelp) var margins: EdgeInsets?
    @Option(name: PaperOptions.outputType.flag, help: PaperOptions.outputType.argumentHelp) var outputType: PrintInfo.OutputType?
    @Option(name: PaperOptions.colorMode.flag, help: PaperOptions.colorMode.argumentHelp) var printColorMode: JobSettings.ColorMode?
    @Option(name: PaperOptions.header.flag, help: PaperOptions.header.argumentHelp) var header: String?
    @Option(name: PaperOptions.footer.flag, help: PaperOptions.footer.argumentHelp) var footer: String?
    @Option(name: PaperOptions.headerOn.flag, help: PaperOptions.headerOn.argumentHelp) var headerOn: HeaderPlacement?
    @Option(name: PaperOptions.title.flag, help: PaperOptions.title.argumentHelp) var title: String?
}
