import Foundation
import Logging
import HandlerSupport

/// Prints a type an administrator added in types.tsv with a converter command, like a CUPS
/// filter: the command runs with argv (never a shell), {in} and {out} replaced, with no input and
/// its output discarded, and is killed after a time limit; what it writes to {out} must be a PDF
/// qpdf can read, and is printed as one.
public struct ExternalConverterHandler: ContentHandler {
    public let name = "converter"
    public let contentTypes: [String] = []
    public let command: [String]

    public init(command: [String]) { self.command = command }

    /// Reads `settings.limits` (its time, default 120 s, and memory), and what the PDF handler
    /// reads for the result.
    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let limits = ChildProcess.Limits(converter: settings.limits)
        let scratch = try OutputFile.scratch(prefix: "swiftprint-converted-")
        defer { scratch.removeScratch() }
        try scratch.commit()
        let out = scratch.scratchPath!
        try run(input: input.path, output: out, limits: limits)
        var converted = PrintInput(path: out)
        converted.displayName = input.displayName
        do {
            // qpdf maps the file, so the scratch copy can go as soon as it is open.
            return try PDFHandler().makeFormatter(for: converted, settings: settings)
        } catch var error as PrintError {
            error.path = input.path
            error.message = "the converter \(command[0]) did not produce a usable PDF: \(error.message)"
            throw error
        }
    }

    private func run(input: String, output: String, limits: ChildProcess.Limits) throws {
        guard let program = command.first else { throw PrintError(.invalidOption, path: input, "the converter command is empty") }
        let arguments = command.dropFirst().map {
            $0.replacingOccurrences(of: "{in}", with: input).replacingOccurrences(of: "{out}", with: output)
        }
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(program, arguments, limits: limits) } catch {
            throw PrintError(.notAvailable, path: input, "cannot start the converter \(program): \(error.localizedDescription)")
        }
        if let crossed = result.limitError("the converter \(program)", path: input, clock: LimitOptions.converterTimeout) { throw crossed }
        guard result.status == 0, !result.signalled else {
            let said = result.lastErrorLine
            throw PrintError(.jobFailed, path: input, "the converter \(program) failed (exit \(result.status))\(said.isEmpty ? "" : ": " + said)")
        }
    }
}
