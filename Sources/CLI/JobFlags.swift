import ArgumentParser
import SwiftPrint

/// Every option of a print job, in groups; `convert`, `preview` and `print` share them, so a
/// preview shows exactly what the same flags convert.
struct JobFlags: ParsableArguments {
    @OptionGroup(title: "Paper and job") var paper: PaperFlags
    @OptionGroup(title: "Sheets: n-up, two-sided, booklets") var sheets: SheetFlags
    @OptionGroup(title: "PDF documents and images") var placement: PlacementFlags
    @OptionGroup(title: "Plain text") var text: TextFlags
    @OptionGroup(title: "HTML and Markdown") var markup: MarkupFlags
    @OptionGroup(title: "Maps") var map: MapFlags
    @OptionGroup(title: "Presets") var presets: PresetFlags

    /// The job's settings: a --preset's, then every flag over them, each set through its
    /// declaration as the CUPS filter sets `-o` options.
    func settings() throws -> JobSettings {
        var settings = JobSettings()
        try presets.apply(to: &settings)
        try paper.apply(to: &settings)
        try sheets.apply(to: &settings)
        try placement.apply(to: &settings)
        try text.apply(to: &settings)
        try markup.apply(to: &settings)
        try map.apply(to: &settings)
        settings.resolve()
        return settings
    }

    /// Input errors found before any work: no inputs, standard input twice, a bad option value.
    func validate(inputs: [String]) throws {
        if inputs.isEmpty { throw ValidationError("name at least one document to print") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        do { _ = try settings() } catch let error as PrintError { throw ValidationError(error.message) }
    }
}
