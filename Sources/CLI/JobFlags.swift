import ArgumentParser
import SwiftPrint

/// A job's documents and options. The options are not ArgumentParser's: each is read by its
/// declaration (`JobSettings.declaredOptions`), from the same text a print job's `lp -o` gives,
/// so a flag means what the same option means in CUPS, and `--help` lists them from the same
/// declarations (`JobFlagsHelp`). `convert`, `preview` and `print` share them, so a preview shows
/// exactly what the same flags convert.
struct JobFlags: ParsableArguments {
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("The documents to print (- reads standard input), and the job's options (below).",
                                 valueName: "file-or-option"),
              completion: .custom(Completion.jobArguments))
    var arguments: [String] = []

    @OptionGroup(title: "Presets") var presets: PresetFlags

    /// The documents named, in order.
    var inputs: [String] { (try? JobArguments(arguments).inputs) ?? [] }

    /// The documents as the job prints them: typed by `--document-format` when it is given.
    func printInputs(_ settings: JobSettings) throws -> [PrintInput] {
        let dispatcher = Dispatcher.standard
        if let format = settings.documentFormat, dispatcher.detector.catalogue.type(forMIME: format).flatMap(dispatcher.handler(for:)) == nil {
            throw PrintError(.invalidOption, "--document-format \(format): swiftprint prints no such type (swiftprint types lists them)")
        }
        return inputs.map { path in
            var input = PrintInput(path: path)
            input.declaredMIMEType = settings.documentFormat
            return input
        }
    }

    /// The job's settings: a --preset's, then every option over them, in the order given.
    func settings() throws -> JobSettings { try settings(from: JobArguments(arguments)) }

    private func settings(from parsed: JobArguments) throws -> JobSettings {
        var settings = JobSettings()
        try presets.apply(to: &settings)
        for (option, text) in parsed.options { try option.apply(commandLineText: text, to: &settings) }
        settings.resolve()
        return settings
    }

    /// Input errors found before any work: no inputs, standard input twice, an unknown option or
    /// a bad value.
    func validate() throws {
        let parsed: JobArguments
        do { parsed = try JobArguments(arguments) } catch let error as PrintError { throw ValidationError(error.message) }
        if parsed.inputs.isEmpty { throw ValidationError("name at least one document to print") }
        if parsed.inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
        do { _ = try settings(from: parsed) } catch let error as PrintError { throw ValidationError(error.message) }
    }
}

/// The arguments ArgumentParser left over, split by the declarations into documents and options:
/// `--name VALUE`, `--name=VALUE`, `--flag`, `--no-flag`; after `--`, only documents.
struct JobArguments {
    var inputs: [String] = []
    var options: [(option: any DeclaredOption, text: String)] = []

    /// The options the command line takes, by flag name (`--no-wrap` under `no-wrap`).
    static let byFlag: [String: (option: any DeclaredOption, text: String?)] = {
        var table: [String: (option: any DeclaredOption, text: String?)] = [:]
        for option in JobSettings.declaredOptions where option.sources.contains(.commandLine) {
            switch option.commandLineForm {
            case .option: table[option.commandLineName] = (option, nil)
            case .flag: table[option.commandLineName] = (option, "true")
            case .invertedFlag:
                table[option.commandLineName] = (option, "true")
                table["no-" + option.commandLineName] = (option, "false")
            }
        }
        return table
    }()

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { inputs += rest; break }
            guard argument.hasPrefix("-"), argument != "-" else { inputs.append(argument); continue }
            let body = argument.drop { $0 == "-" }
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard argument.hasPrefix("--"), let (option, fixed) = Self.byFlag[name] else {
                throw PrintError(.invalidOption, "unknown option '\(argument)'"
                                 + Suggestions.didYouMean(name, among: Self.byFlag.keys, written: "--"))
            }
            if let fixed {
                guard inline == nil else { throw PrintError(.invalidOption, "--\(name) takes no value") }
                options.append((option, fixed))
            } else if let text = inline ?? rest.popFirst() {
                options.append((option, text))
            } else {
                throw PrintError(.invalidOption, "--\(name) needs a value")
            }
        }
    }
}
