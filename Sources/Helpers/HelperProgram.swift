import Foundation
import PDFObjects
import PrintModel
import PrintSupport

/// swiftprint's helper executables (swiftprint-image, swiftprint-markup, swiftprint-map):
/// programs that run one kind of job in a process of its own, so that other jobs never load
/// their libraries.
package enum HelperProgram {
    /// Where `name` is: the path in `$environmentVariable`, else beside the running executable,
    /// else in /usr/local/libexec/swiftprint or /usr/libexec/swiftprint. Nil when none is there.
    package static func find(_ name: String, environmentVariable: String) -> String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment[environmentVariable] { candidates.append(path) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name).path)
        }
        candidates += ["/usr/local/libexec/swiftprint/" + name, "/usr/libexec/swiftprint/" + name]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension HelperProgram {
    /// Runs helper `name` as `name INPUT SCRATCH.pdf ARGUMENTS…` for the job's `input` and opens
    /// the PDF it wrote (the scratch file is gone by the time this returns: qpdf maps it).
    /// `doing` says what the helper is for, in the error when it is not installed; `failure`
    /// turns a run that did not exit 0 into the job's error.
    package static func makePDF(_ name: String, environmentVariable: String, doing: String, input: String,
                                arguments: [String], failure: (ChildProcess.Result) -> PrintError)
        throws -> (document: QPDFDocument, result: ChildProcess.Result) {
        guard let helper = find(name, environmentVariable: environmentVariable) else {
            throw PrintError(.notAvailable, path: input, "cannot \(doing): \(name) is not installed beside swiftprint")
        }
        let scratch = try OutputFile.scratch(prefix: name + "-")
        defer { scratch.removeScratch() }
        try scratch.commit()
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(helper, [input, scratch.scratchPath!] + arguments) } catch {
            throw PrintError(.notAvailable, path: input, "cannot start \(helper): \(error.localizedDescription)")
        }
        guard result.status == 0, !result.signalled else { throw failure(result) }
        return (try QPDFDocument(path: scratch.scratchPath!), result)
    }
}

/// How a helper program reports the error that stopped it: one JSON object on its standard
/// output, read back by the handler that ran it, so the error keeps its code and its file.
package struct HelperFailure: Codable, Sendable {
    var code: String
    var path: String?
    var message: String

    package init(_ error: PrintError) {
        code = error.code.description
        path = error.path
        message = error.message
    }

    package var error: PrintError { PrintError(PrintError.Code(named: code), path: path, message) }

    /// The JSON line to write.
    package var line: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }

    /// The failure a helper wrote on its standard output, if it wrote one.
    package init?(output: Data) {
        guard let failure = try? JSONDecoder().decode(HelperFailure.self, from: output) else { return nil }
        self = failure
    }
}
