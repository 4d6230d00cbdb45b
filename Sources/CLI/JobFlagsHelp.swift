import SwiftPrint

/// The job options' part of `--help`, written from their declarations, in their groups.
enum JobFlagsHelp {
    /// The listing, when help is asked for; empty otherwise. ArgumentParser builds every
    /// command's configuration on every run, and writing this one takes a millisecond.
    static var text: String {
        let asksForHelp = CommandLine.arguments.contains { ["--help", "-h", "help", "--experimental-dump-help"].contains($0) }
        return asksForHelp ? listing : ""
    }

    static let listing: String = JobSettings.optionGroups.map { group in
        let lines = group.options.filter { $0.sources.contains(.commandLine) }.map(entry)
        return group.title.uppercased() + ":\n" + lines.joined(separator: "\n")
    }.joined(separator: "\n\n")

    /// The option's default when a few words say it (a value, `1 (one page a side)`); longer
    /// ones (who decides the paper) are for the manual.
    static func shortDefault(_ option: any DeclaredOption) -> String? {
        switch option.defaultValue {
        case .value(let text)? where option.commandLineForm == .option: text
        case .unset(let text)? where option.commandLineForm == .option && text.count <= 32: text
        default: nil
        }
    }

    /// `  --name <value>   help`, the help wrapped under its column within 79 columns (ArgumentParser rewraps longer lines).
    private static func entry(_ option: any DeclaredOption) -> String {
        let flag: String = switch option.commandLineForm {
        case .option: "--\(option.commandLineName) <\(option.valueName ?? option.commandLineName)>"
        case .flag: "--\(option.commandLineName)"
        case .invertedFlag: "--[no-]\(option.commandLineName)"
        }
        var help = option.discussion.isEmpty ? option.help : option.help + " " + option.discussion
        if let shown = shortDefault(option) { help += " (default \(shown))" }
        let column = 30, width = 79
        var lines: [String] = [], line = "  " + flag
        line += flag.count + 2 < column - 1 ? String(repeating: " ", count: column - 2 - flag.count) : "\n" + String(repeating: " ", count: column)
        var lineLength = line.split(separator: "\n", omittingEmptySubsequences: false).last!.count
        for word in help.split(separator: " ") {
            if lineLength + word.count + 1 > width, lineLength > column {
                lines.append(line)
                line = String(repeating: " ", count: column)
                lineLength = column
            }
            if lineLength > column { line += " "; lineLength += 1 }
            line += word
            lineLength += word.count
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
