import ArgumentParser
import Foundation
import SwiftPrint

/// Shell completion for what ArgumentParser cannot see. Its scripts (`swiftprint
/// --generate-completion-script bash|zsh|fish`) complete the subcommands and its own flags, and
/// ask these functions (through `swiftprint ---completion`) for the rest: the job options, read
/// by their declarations as the job reads them, their keywords, the documents by printable type,
/// and the printers CUPS knows.
enum Completion {
    /// Candidates for the job's words (`convert`, `preview`, `print`): after an option that takes
    /// a value, its keywords (files where it has none: a profile, a preset); a word starting with
    /// `-`, every job flag; else the documents swiftprint prints, and folders.
    @Sendable static func jobArguments(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let previous = index > 0 && index - 1 < words.count ? words[index - 1] : ""
        // bash splits `--sides=two` into `--sides`, `=` and `two` (`=` is in COMP_WORDBREAKS):
        // the value after the `=`, or, on the `=` itself, the value with it.
        if previous == "=", index >= 2, let option = valueOption(words[index - 2]) { return matching(option.keywords, prefix) }
        if prefix == "=", let option = valueOption(previous) { return option.keywords.map { "=" + $0 } }
        if let option = valueOption(previous), !prefix.hasPrefix("-") {
            return option.keywords.isEmpty ? files(prefix, printableOnly: false) : matching(option.keywords, prefix)
        }
        if prefix.hasPrefix("--"), let equals = prefix.firstIndex(of: "=") {
            let flag = String(prefix[..<equals])
            guard let option = valueOption(flag) else { return [] }
            return matching(option.keywords, String(prefix[prefix.index(after: equals)...])).map { flag + "=" + $0 }
        }
        if prefix.hasPrefix("-") { return flags.filter { $0.hasPrefix(prefix) } }
        return files(prefix, printableOnly: true)
    }

    /// The keywords that start as `typed` does, in any case (values are read in any case),
    /// continued in the case typed (`a` → `a4`): shells keep only candidates that start with
    /// exactly what was typed.
    static func matching(_ keywords: [String], _ typed: String) -> [String] {
        keywords.filter { $0.lowercased().hasPrefix(typed.lowercased()) }.map { typed + $0.dropFirst(typed.count) }
    }

    /// The printers CUPS knows (`-d`), without asking each what it supports.
    @Sendable static func printers(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        ((try? PrinterDirectory.printers(capabilities: false)) ?? []).map(\.name).filter { $0.hasPrefix(prefix) }
    }

    /// Every job flag the command line takes: `--name` for options and flags, both `--name` and
    /// `--no-name` for those on by default.
    static var flags: [String] {
        JobSettings.declaredOptions.filter { $0.sources.contains(.commandLine) }.flatMap { option -> [String] in
            switch option.commandLineForm {
            case .option, .flag: ["--" + option.commandLineName]
            case .invertedFlag: ["--" + option.commandLineName, "--no-" + option.commandLineName]
            }
        }
    }

    /// The job option that `word` (`--sides`) names and that takes a value.
    private static func valueOption(_ word: String) -> (any DeclaredOption)? {
        guard word.hasPrefix("--") else { return nil }
        let name = String(word.dropFirst(2))
        return JobSettings.declaredOptions.first { $0.sources.contains(.commandLine) && $0.commandLineForm == .option && $0.commandLineName == name }
    }

    /// The entries of the folder `prefix` is in that start as it does: folders (with `/`), and
    /// files; with `printableOnly`, only those of a type swiftprint prints, by extension.
    static func files(_ prefix: String, printableOnly: Bool) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let path = folder.isEmpty ? "." : (folder.hasPrefix("~/") ? NSHomeDirectory() + folder.dropFirst() : folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        let extensions = printableOnly ? printableExtensions : []
        return names.filter { $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().compactMap { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder)
            if isFolder.boolValue { return folder + name + "/" }
            let ext = (name as NSString).pathExtension.lowercased()
            return !printableOnly || extensions.contains(ext) ? folder + name : nil
        }
    }

    /// The file extensions of every type some handler prints (`pdf`, `jpg`, `md`, `gpx`, …).
    static var printableExtensions: Set<String> {
        let dispatcher = Dispatcher.standard
        let catalogue = dispatcher.detector.catalogue
        return Set(dispatcher.printableUTIs.flatMap { catalogue.type($0)?.extensions ?? [] }.map { $0.lowercased() })
    }
}
