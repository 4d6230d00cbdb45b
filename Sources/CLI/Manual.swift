import ArgumentParser
import Foundation
import SwiftPrint

/// `swiftprint manual DIR`: the manual pages, made from what the program itself declares, so
/// that they cannot drift from it: each command's help as ArgumentParser holds it (read from
/// `--experimental-dump-help`), and the job options from their declarations, with the values
/// they take and where else they may be set (`lp -o`, the queue's defaults). Run at build time
/// (`scripts/build-manual`); hidden from `--help`.
struct Manual: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write swiftprint's manual pages (swiftprint(1), one per command, swiftprint-queue(7)) into a folder.",
        shouldDisplay: false)

    @Argument(help: "The folder to write man1/ and man7/ into.", completion: .directory)
    var folder: String

    @Option(help: "The folder of the pages' prose in Markdown (swiftprint.1.md, swiftprint-queue.7.md: the source tree's docs/).",
            completion: .directory)
    var prose = "docs"

    func run() throws {
        let tool = try ManualSource.read()
        func read(_ name: String) throws -> String { try String(contentsOfFile: prose + "/" + name, encoding: .utf8) }
        let pages = ManualPages(tool: tool, version: SwiftPrintVersion.current,
                                userMarkdown: try read("swiftprint.1.md"), queueMarkdown: try read("swiftprint-queue.7.md"))
        for (section, name, text) in pages.all {
            let dir = folder + "/man\(section)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try text.write(toFile: dir + "/\(name).\(section)", atomically: true, encoding: .utf8)
        }
    }
}

/// The commands as ArgumentParser describes them, read from this same program's
/// `--experimental-dump-help` (its ToolInfoV0 JSON; the types that decode it are not among
/// ArgumentParser's products, so the part the pages use is decoded here).
enum ManualSource {
    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    struct Argument: Decodable {
        enum Kind: String, Decodable { case positional, option, flag }
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: Kind
        var names: [Name]?
        var valueName: String?
        var shouldDisplay: Bool
        var abstract: String?
    }

    private struct Tool: Decodable { var command: Command }

    static func read() throws -> Command {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["--experimental-dump-help"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("swiftprint --experimental-dump-help failed") }
        return try JSONDecoder().decode(Tool.self, from: data).command
    }
}

/// The pages, as man(7) source.
struct ManualPages {
    let tool: ManualSource.Command
    let version: String
    /// swiftprint(1)'s prose and swiftprint-queue(7)'s, in Markdown.
    let userMarkdown: String
    let queueMarkdown: String
    let date = "2026"

    /// (section, name, text) of every page.
    var all: [(Int, String, String)] {
        let commands = (tool.subcommands ?? []).filter { $0.shouldDisplay && $0.commandName != "help" }
        return [(1, "swiftprint", root(commands))] + commands.map { (1, "swiftprint-" + $0.commandName, page(for: $0)) }
            + [(7, "swiftprint-queue", QueueManualPage(version: version, date: date, markdown: queueMarkdown).text)]
    }

    /// swiftprint(1): what it is, its commands, its exit status.
    func root(_ commands: [ManualSource.Command]) -> String {
        var r = Roff(title: "SWIFTPRINT", section: 1, version: version, date: date)
        r.section("NAME")
        r.line("swiftprint \\- " + Roff.escape(tool.abstract ?? ""))
        r.section("SYNOPSIS")
        r.line("\\fBswiftprint\\fR \\fIcommand\\fR [\\fIoptions\\fR] [\\fIfile\\fR ...]")
        MarkdownToRoff.render(userMarkdown, into: &r) { _ in }
        r.section("COMMANDS")
        for command in commands {
            r.item("\\fB" + command.commandName + "\\fR", Roff.escape(command.abstract ?? "") + " See \\fBswiftprint-\(command.commandName)\\fR(1).")
        }
        r.section("EXIT STATUS")
        r.paragraph(tool.discussion ?? "")
        r.seeAlso(commands.map { "swiftprint-\($0.commandName)(1)" } + ["swiftprint-queue(7)", "lp(1)", "cups(1)"])
        return r.text
    }

    /// One command's page: its arguments, its options, the job options it takes, its examples.
    func page(for command: ManualSource.Command) -> String {
        let name = "swiftprint-" + command.commandName
        var r = Roff(title: name.uppercased(), section: 1, version: version, date: date)
        r.section("NAME")
        r.line(name.replacingOccurrences(of: "-", with: "\\-") + " \\- " + Roff.escape(command.abstract ?? ""))
        let arguments = (command.arguments ?? []).filter(\.shouldDisplay)
        r.section("SYNOPSIS")
        r.line("\\fBswiftprint \(command.commandName)\\fR " + arguments.filter { $0.kind == .positional }.map { "\\fI\($0.valueName ?? "")\\fR ..." }.joined(separator: " ")
            + (arguments.contains { $0.kind != .positional } ? " [\\fIoptions\\fR]" : ""))
        let parts = DiscussionParts(command.discussion ?? "")
        r.section("DESCRIPTION")
        for paragraph in parts.prose { r.paragraph(paragraph) }
        // The documents first, then the options.
        for (title, kinds) in [("ARGUMENTS", [ManualSource.Argument.Kind.positional]), ("OPTIONS", [.option, .flag])] {
            let listed = arguments.filter { kinds.contains($0.kind) }
            guard !listed.isEmpty else { continue }
            r.section(title)
            for argument in listed { r.item(Self.usage(argument), Roff.escape(argument.abstract ?? "")) }
        }
        if parts.takesJobOptions { jobOptions(into: &r) }
        if !parts.examples.isEmpty {
            r.section("EXAMPLES")
            r.example(parts.examples)
        }
        r.section("EXIT STATUS")
        r.line(".PP\nAs \\fBswiftprint\\fR(1) says.")
        r.seeAlso(["swiftprint(1)", "swiftprint-queue(7)"])
        return r.text
    }

    /// `--output <output>`, `-o`, as the options list writes it.
    static func usage(_ argument: ManualSource.Argument) -> String {
        if argument.kind == .positional { return "\\fI" + (argument.valueName ?? "") + "\\fR" }
        let names = (argument.names ?? []).map { ($0.kind == "short" ? "\\-" : "\\-\\-") + $0.name.replacingOccurrences(of: "-", with: "\\-") }
        let value = argument.kind == .option ? " \\fI" + (argument.valueName ?? "value") + "\\fR" : ""
        return names.map { "\\fB" + $0 + "\\fR" }.joined(separator: ", ") + value
    }

    /// The job options, in their groups, each as the command line takes it, with its values and
    /// where else it may be set.
    func jobOptions(into r: inout Roff) {
        r.section("JOB OPTIONS")
        r.line(".PP\nThe same options as a print job's (\\fBlp \\-o\\fR \\fIname\\fR=\\fIvalue\\fR, see \\fBswiftprint\\-queue\\fR(7)), given in any order among the documents.")
        for group in JobSettings.optionGroups {
            let options = group.options.filter { $0.sources.contains(.commandLine) }
            guard !options.isEmpty else { continue }
            r.subsection(group.title)
            for option in options { r.item(Self.flag(option), Self.description(option)) }
        }
    }

    static func flag(_ option: any DeclaredOption) -> String {
        let name = option.commandLineName.replacingOccurrences(of: "-", with: "\\-")
        return switch option.commandLineForm {
        case .option: "\\fB\\-\\-\(name)\\fR \\fI\(option.valueName ?? option.commandLineName)\\fR"
        case .flag: "\\fB\\-\\-\(name)\\fR"
        case .invertedFlag: "\\fB\\-\\-no\\-\(name)\\fR"
        }
    }

    /// The values an option takes, when they can be listed, and its default, as lines of its entry.
    static func values(_ option: any DeclaredOption) -> String {
        var text = ""
        if !option.keywords.isEmpty { text += "\n.br\nValues: " + Roff.escape(option.keywords.joined(separator: ", ")) + "." }
        switch option.defaultValue {
        case .value(let value)?: text += "\n.br\nDefault: \\fB" + Roff.escape(value) + "\\fR."
        case .unset(let what)?: text += "\n.br\nDefault: " + Roff.escape(what) + "."
        case nil: break
        }
        return text
    }

    /// The help, its values, and the names it has elsewhere.
    static func description(_ option: any DeclaredOption) -> String {
        var text = Roff.escape(option.discussion.isEmpty ? option.help : option.help + " " + option.discussion)
        text += values(option)
        var elsewhere: [String] = []
        if option.sources.contains(.printJob) { elsewhere.append("a print job as \\fB\\-o " + Roff.escape(option.name) + "\\fR") }
        if option.sources.contains(.queueDefaults), let ppd = option.ppd {
            elsewhere.append("the queue's default, \\fBlpadmin \\-p swiftprint \\-o " + Roff.escape(option.name) + "=\\fR\\fIchoice\\fR (choices "
                + Roff.escape(ppd.choices.map(\.keyword).joined(separator: ", ")) + "; installed as " + Roff.escape(ppd.defaultKeyword) + ")")
        }
        if !elsewhere.isEmpty { text += "\n.br\nAlso set by " + elsewhere.joined(separator: "; ") + "." }
        return text
    }
}

/// A command's discussion, split as the manual shows it: prose paragraphs, then the examples.
struct DiscussionParts {
    var prose: [String] = []
    var examples: [String] = []
    /// Whether the discussion ends with the job options' listing (`convert`, `preview`, `print`).
    var takesJobOptions = false

    init(_ discussion: String) {
        var text = discussion
        if let listing = text.range(of: JobFlagsHelp.listing) {
            takesJobOptions = true
            text.removeSubrange(listing)
        }
        for block in text.components(separatedBy: "\n\n") where !block.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            if block.hasPrefix("Examples:") {
                examples += block.split(separator: "\n").dropFirst().map { String($0.drop { $0 == " " }) }
            } else {
                prose.append(block)
            }
        }
    }
}
