import ArgumentParser
import SwiftPrint

// The job flags take their names, help and value types from the option declarations
// (`JobSettings.declaredOptions`), and set the settings through them: a flag means what the same
// option means in a CUPS job. OptionDeclarationTests checks that each declared option has its
// flag, and no flag is undeclared.

extension DeclaredOption {
    /// `--name`.
    var flag: NameSpecification { .customLong(commandLineName) }
    var argumentHelp: ArgumentHelp { ArgumentHelp(help, discussion: discussion, valueName: valueName) }
}

/// Flag values read exactly as `lp -o` values are (`OptionValue`).
extension MediaSize: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension PageRanges: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension EdgeInsets: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension Points: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension Font: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension Color: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension MapSettings.PosterGrid: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension MapSettings.Grid: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension OrientationRequested: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension PrintInfo.OutputType: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension JobSettings.ColorMode: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension HeaderPlacement: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension SheetOptions.Layout: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension SheetOptions.Border: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension SheetOptions.PageSet: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension PrintInfo.Duplex: ExpressibleByArgument {
    public init?(argument: String) { self.init(optionText: argument) }
    public static var allValueStrings: [String] { allCases.map(\.ippSides) }
}
extension OutputOrder: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension PrintScaling: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension ContentPosition: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension PlacementSettings.GIFFrames: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension TextAlignment: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension LineBreakMode: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }
extension MapSettings.MissingTiles: ExpressibleByArgument { public init?(argument: String) { self.init(optionText: argument) } }

/// A group of job flags: one property per option of `declarations` that the command line takes,
/// in the declarations' order, so that the flags are set through their declarations without a
/// second list (OptionDeclarationTests sets each one).
protocol JobFlagGroup: ParsableArguments {
    static var declarations: [any DeclaredOption] { get }
}

extension JobFlagGroup {
    func apply(to settings: inout JobSettings) throws {
        let values = Mirror(reflecting: self).children.compactMap { ($0.value as? any JobFlagValue)?.flagValue }
        let options = Self.declarations.filter { $0.sources.contains(.commandLine) }
        precondition(values.count == options.count, "\(Self.self): \(values.count) flags for \(options.count) declared options")
        for (option, value) in zip(options, values) { try option.set(flagValue: value, in: &settings) }
    }
}

/// What a parsed flag holds, whatever its type.
protocol JobFlagValue { var flagValue: Any { get } }
extension Option: JobFlagValue { var flagValue: Any { wrappedValue } }
extension Flag: JobFlagValue { var flagValue: Any { wrappedValue } }
