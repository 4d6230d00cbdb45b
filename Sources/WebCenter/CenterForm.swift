import Foundation
import PrintModel
import PrintOptions

/// The print form, made from the option declarations the CLI, `lp -o` and the queue's PPD read
/// (`JobSettings.optionGroups`): nothing of it is written by hand, so a new option appears on
/// the page as it appears in `--help`. The form holds the groups every job uses and the group
/// of the file's own type; a chosen value goes to `swiftprint` as its flag.
enum CenterForm {
    struct Option: Encodable, Sendable {
        /// The flag without `--`: what the page sends back.
        var flag: String
        /// The IPP/CUPS name (`number-up`), by which the page matches a printer's own choices.
        var name: String
        var help: String
        /// `choice` (a list of words), `switch` (on or off) or `value` (typed in).
        var kind: String
        var choices: [String]
        var example: String
        /// What it is when not given, as `--help` says it.
        var standard: String
    }

    struct Group: Encodable, Sendable {
        var title: String
        /// The handlers whose files it applies to; empty: every file.
        var handlers: [String]
        var options: [Option]
    }

    /// The groups of options every file has.
    static let everyFile = ["Paper and job", "Sheets: n-up, two-sided, booklets"]
    /// Each group of one type's options, by the handlers `swiftprint detect` names.
    static let byHandler: [String: [String]] = [
        "PDF documents and images": ["pdf", "image"],
        "Plain text": ["text"],
        "HTML and Markdown": ["markup", "markdown"],
        "Maps": ["map"],
    ]
    /// Options the form leaves out: those the page sets itself (the type is detected, the title
    /// is the file's name), and those that name a file or folder of this machine (the page
    /// reaches no file by name: a map's tiles and their cache, the folder a web page may read).
    static let notOnThePage: Set<String> = Set([PaperOptions.documentFormat, PaperOptions.title, MarkupOptions.allowFiles,
                                                MapOptions.tiles, MapOptions.tileCache].map { ($0 as any DeclaredOption).name })

    static let groups: [Group] = JobSettings.optionGroups.compactMap { group in
        let handlers = byHandler[group.title]
        guard everyFile.contains(group.title) || handlers != nil else { return nil }
        let options = group.options.filter { $0.sources.contains(.commandLine) && !notOnThePage.contains($0.name) }.map(option)
        return Group(title: group.title, handlers: handlers ?? [], options: options)
    }

    private static func option(_ declared: any DeclaredOption) -> Option {
        let kind = declared.commandLineForm != .option ? "switch" : declared.keywords.isEmpty ? "value" : "choice"
        let standard: String
        switch declared.defaultValue {
        case .value(let text)?: standard = text
        case .unset(let text)?: standard = text
        case nil: standard = ""
        }
        return Option(flag: declared.commandLineName, name: declared.name, help: declared.help, kind: kind,
                      choices: kind == "choice" ? declared.keywords : [], example: declared.example, standard: standard)
    }

    /// `swiftprint`'s arguments for the values the page chose (flag → value; a switch is `on` or
    /// `off`), each checked by its declaration first: an unknown flag or a value the option does
    /// not take is refused here, named as the command line would name it.
    static func arguments(for chosen: [String: String]) throws -> [String] {
        let declared = Dictionary(groups.flatMap(\.options).map { ($0.flag, $0) }, uniquingKeysWith: { a, _ in a })
        var arguments: [String] = []
        var settings = JobSettings()
        for (flag, value) in chosen.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
            guard declared[flag] != nil, let option = JobSettings.declaredOptions.first(where: { $0.commandLineName == flag }) else {
                throw PrintError(.invalidOption, "--\(flag): not an option of the print form")
            }
            if option.commandLineForm == .option {
                try option.apply(commandLineText: value, to: &settings)
                arguments += ["--" + flag, value]
                continue
            }
            guard let on = ["on": true, "off": false][value] else {
                throw PrintError(.invalidOption, "--\(flag): on or off, not \(value)")
            }
            switch (option.commandLineForm, on) {
            case (.flag, true): arguments.append("--" + flag)
            case (.invertedFlag, false): arguments.append("--no-" + flag)
            default: break
            }
        }
        return arguments
    }
}
