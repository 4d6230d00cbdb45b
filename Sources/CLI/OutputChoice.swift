import ArgumentParser
import Foundation
import SwiftPrint

/// Where `convert` and `preview` write: `-o FILE` given once, `-o -` for standard output, or —
/// for `convert` of one file — beside the input (`notes.txt` → `notes.pdf`).
enum OutputChoice {
    /// Refuses a second `-o`, which ArgumentParser would quietly take over the first: `-o
    /// out.pdf -o media=A5` (a CUPS habit) would write the job to a file named `media=A5`. A
    /// value that reads as one of the job's options says which flag was meant. The command
    /// line is read as given, up to `--`.
    static func checkGivenOnce(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) throws {
        var values: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst(), argument != "--" {
            if argument == "-o" || argument == "--output" {
                if let value = rest.popFirst() { values.append(value) }
            } else if argument.hasPrefix("--output=") {
                values.append(String(argument.dropFirst("--output=".count)))
            } else if argument.hasPrefix("-o"), !argument.hasPrefix("--") {
                values.append(String(argument.dropFirst(2)))
            }
        }
        guard values.count > 1 else { return }
        let optionLike = values.compactMap { value -> String? in
            let parts = value.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let option = JobSettings.option(named: String(parts[0])),
                  option.sources.contains(.commandLine) else { return nil }
            return "--\(option.commandLineName) \(parts[1])"
        }
        let hint = optionLike.isEmpty ? "" : "; a job's options are flags here: \(optionLike.joined(separator: " "))"
        throw ValidationError("-o names the output and is given once (got \(values.map { "'\($0)'" }.joined(separator: ", ")))\(hint)")
    }

    /// The output of `convert` without `-o`: the one input's name with `extension`, beside it,
    /// never over a file that exists unless `force`.
    static func beside(inputs: [String], extension: String, force: Bool) throws -> String {
        guard inputs.count == 1, let input = inputs.first, input != "-" else {
            throw PrintError(.invalidOption, inputs.contains("-")
                ? "name the output with -o (- for standard output): standard input has no name to take"
                : "name the output with -o: \(inputs.count) documents make one \(`extension`.uppercased())")
        }
        let url = URL(fileURLWithPath: input)
        let output = url.deletingPathExtension().appendingPathExtension(`extension`).path
        guard output != url.path else {
            throw PrintError(.invalidOption, "\(input) is a .\(`extension`) already: name another output with -o")
        }
        if !force, FileManager.default.fileExists(atPath: output) {
            throw PrintError(.outputFailed, path: output, "exists already: name the output with -o, or add --force to replace it")
        }
        return output
    }

    /// Binary output to a terminal is refused: it would fill the screen with PDF or PNG bytes.
    static func refuseTerminal(_ path: String, kind: String) throws {
        if path == "-", isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("-o - would write \(kind) to the terminal: redirect standard output (> file, | lp) or name a file with -o")
        }
    }
}
