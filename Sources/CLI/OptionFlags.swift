import ArgumentParser
import SwiftPrint

// The job flags take their names and help from the option declarations
// (`JobSettings.declaredOptions`), and each flag's text is read by its declaration, as the CUPS
// filter reads `lp -o` text: one parse, so a flag means what the same option means in a print
// job. OptionDeclarationTests checks that each declared option has its flag, and no flag is
// undeclared.

extension DeclaredOption {
    /// `--name`.
    var flag: NameSpecification { .customLong(commandLineName) }
    var argumentHelp: ArgumentHelp { ArgumentHelp(help, discussion: discussion, valueName: valueName) }
}

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
