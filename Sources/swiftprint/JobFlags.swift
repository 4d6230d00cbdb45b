import ArgumentParser
import SwiftPrint

/// Every option of a print job, in groups; `convert` and `preview` share them, so a preview
/// shows exactly what the same flags convert.
struct JobFlags: ParsableArguments {
    @OptionGroup(title: "Paper and job") var page: PageOptions
    @OptionGroup(title: "Sheets: n-up, two-sided, booklets") var sheets: SheetLayoutOptions
    @OptionGroup(title: "PDF documents and images") var document: DocumentOptions
    @OptionGroup(title: "Plain text") var text: TextOptions
    @OptionGroup(title: "HTML and Markdown") var markup: MarkupOptions
    @OptionGroup(title: "Maps") var map: MapOptions
    @OptionGroup(title: "Presets") var presets: PresetOptions

    /// Every flag, by its IPP/CUPS name, read the way the CUPS filter reads `-o` options.
    /// A --preset's settings are the base the flags override.
    func jobOptions() throws -> JobOptions {
        var options = try JobOptions(parsing: page.jobOptions + sheets.jobOptions + document.jobOptions + text.jobOptions + markup.jobOptions + map.jobOptions)
        options.info = try presets.applied(to: options.info)
        return options
    }

    /// Input errors found before any work: no inputs, standard input twice, a bad option value.
    func validate(inputs: [String]) throws {
        if inputs.isEmpty { throw ValidationError("name at least one document to print") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        do { _ = try jobOptions() } catch let error as PrintError { throw ValidationError(error.message) }
    }
}
