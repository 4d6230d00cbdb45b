import Foundation
import PDFObjects
import PrintHelpers
import PrintModel
import PrintOptions
import PrintSupport

// The runner of the helper programs (PrintHelpers says the protocol): a helper started under the
// job's limits, its reply read, its PDF opened; and the errors of a program stopped at a limit.

/// swiftprint's helper executables (swiftprint-image, swiftprint-markup, swiftprint-map):
/// programs that run one kind of job in a process of its own, so that other jobs never load
/// their libraries. `Installation.helper` finds one; this starts it.
package enum HelperProgram {
    /// Runs the one-shot helper `name` on `request` for the document `path`, under the job's
    /// `limits` (a helper stopped at one fails naming it and its option), with a scratch PDF
    /// as the request's output, and opens the PDF it wrote (the scratch file is gone by the time
    /// this returns: qpdf maps it). `doing` says what the helper is for, in the error when it is
    /// not installed. A reply's failure is thrown with its code and file (`path` when it names none); a helper that
    /// ends without a reply crashed, and the error says its last words.
    package static func makePDF<Task: Codable & Sendable, Answer: Codable & Sendable>(_ name: String, environmentVariable: String, doing: String, path: String,
                                              request: HelperRequest<Task>, limits: ChildProcess.Limits, answer: Answer.Type = NoAnswer.self)
        throws -> (document: QPDFDocument, reply: HelperReply<Answer>) {
        guard let helper = Installation.helper(name, override: environmentVariable) else {
            throw PrintError(.notAvailable, path: path, "cannot \(doing): \(name) is not installed beside swiftprint")
        }
        let scratch = try OutputFile.scratch(prefix: name + "-")
        defer { scratch.removeScratch() }
        try scratch.commit()
        var request = request
        request.output = scratch.scratchPath!
        let requestFile = try OutputFile.scratch(prefix: name + "-request-")
        defer { requestFile.removeScratch() }
        HelperLine.encode(request).withUnsafeBytes { requestFile.write($0) }
        try requestFile.commit()
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(helper, [], limits: limits, input: requestFile.scratchPath!) } catch {
            throw PrintError(.notAvailable, path: path, "cannot start \(helper): \(error.localizedDescription)")
        }
        if let crossed = result.limitError(name, path: path, clock: LimitOptions.helperTimeout) { throw crossed }
        let lastLine = result.output.split(separator: UInt8(ascii: "\n")).last.map { Data($0) } ?? Data()
        guard !result.signalled, let reply = try? JSONDecoder().decode(HelperReply<Answer>.self, from: lastLine) else {
            throw result.endedWithoutReply(name, path: path, wrote: result.output.isEmpty ? nil : "\(result.output.count) bytes")
        }
        if let failure = reply.failure {
            var error = failure.error
            if error.path == nil { error.path = path }
            throw error
        }
        return (try QPDFDocument(path: scratch.scratchPath!), reply)
    }

}
