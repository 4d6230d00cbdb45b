import ArgumentParser
import Foundation
import Logging
import SwiftPrint

@main
struct SwiftPrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftprint",
        abstract: "Put any content on paper: convert it to print-ready PDF, or print it through CUPS.",
        discussion: """
        Exit codes: 0 done; 64 bad usage or option, or an option the printer lacks; 65 the input \
        is not valid or not a printable type; 66 the input cannot be read; 69 the printer, the job or CUPS \
        cannot be reached or does not exist; 70 drawing or a converter failed; 73 the output cannot \
        be created; 74 the output cannot be written; 75 the printer failed (aborted) the job; 77 \
        the PDF needs a password or forbids printing; 130 the job was cancelled or interrupted \
        (143: terminated).
        """,
        version: SwiftPrintVersion.current,
        subcommands: [Convert.self, Print.self, Printers.self, Jobs.self, Cancel.self, Center.self, Preview.self, Detect.self, Types.self,
                      Install.self, Uninstall.self, Manual.self]
    )

    static func main() {
        StartupWarming.begin(arguments: CommandLine.arguments)
        // A document command is parsed on its own first: through the root, ArgumentParser
        // builds the command's option table once more just to see whether it takes every
        // remaining argument (3–4 ms when the job's options were ArgumentParser's; they are the
        // declarations' now, JobFlags). Help and every parsing error go through the root as
        // always, so that they read the same.
        if let name = CommandLine.arguments.dropFirst().first,
           let command = documentCommands.first(where: { $0.configuration.commandName == name }),
           var parsed = try? command.parseAsRoot(Array(CommandLine.arguments.dropFirst(2))),
           // (--help parses into ArgumentParser's own help command.)
           type(of: parsed) == command {
            do { try parsed.run() } catch { exit(withError: error) }
            return
        }
        refuseUnknownSubcommand()
        main(nil)
    }

    /// `swiftprint conver notes.txt -o t.pdf`: ArgumentParser would take the word for an
    /// argument of the root and complain about `-o`; the user needs to hear that the command's
    /// name is wrong, and which one was meant.
    static func refuseUnknownSubcommand() {
        guard let word = CommandLine.arguments.dropFirst().first, !word.hasPrefix("-") else { return }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return }
        FileHandleStderr.write("swiftprint: '\(word)' is not a swiftprint command\(Suggestions.didYouMean(word, among: names)); swiftprint --help lists them\n")
        exit(withError: ExitCode(ExitCodes.usage))
    }

    static let documentCommands: [any ParsableCommand.Type] = [Convert.self, Print.self, Preview.self]
}

/// Options every subcommand shares.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print no progress and no warnings.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Say more about what happens (encoding, page counts, timing).")
    var verbose = false

    func bootstrapLogging() {
        let level: Logger.Level = quiet ? .error : verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
