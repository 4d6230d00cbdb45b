import Foundation
import PDFObjects
import PrintModel
import PrintOptions
import PrintSupport

/// swiftprint's helper executables (swiftprint-image, swiftprint-markup, swiftprint-map):
/// programs that run one kind of job in a process of its own, so that other jobs never load
/// their libraries.
package enum HelperProgram {
    /// Where `name` is: the path in `$environmentVariable`, else beside the running executable,
    /// else in the `libexec/swiftprint` of its installation's prefix, else in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint. Nil when none is there.
    package static func find(_ name: String, environmentVariable: String) -> String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment[environmentVariable] { candidates.append(path) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent(name).path)
            // An installation's own libexec, at whatever prefix (`PREFIX/bin/swiftprint`).
            candidates.append(folder.deletingLastPathComponent().appendingPathComponent("libexec/swiftprint/" + name).path)
        }
        candidates += ["/usr/local/libexec/swiftprint/" + name, "/usr/libexec/swiftprint/" + name]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension ChildProcess.Limits {
    /// A helper's bounds under the job's limits: its clock (`helper-timeout`), as much
    /// processor time, and its memory (`helper-memory`).
    package init(helper limits: JobLimits) {
        let h = limits.helper
        self.init(seconds: h.seconds, cpuSeconds: h.cpuSeconds, memoryBytes: h.memoryBytes)
    }

    /// A converter's (types.tsv): its own clock (`converter-timeout`), a helper's memory.
    package init(converter limits: JobLimits) {
        self.init(seconds: limits.converterSeconds, cpuSeconds: Int(limits.converterSeconds.rounded(.up)),
                  memoryBytes: limits.helper.memoryBytes)
    }
}

extension ChildProcess.Result {
    /// The error for a program stopped at one of its limits, naming the limit and the option
    /// that sets it; nil when it crossed none. `clock` is the option of its time limit.
    package func limitError(_ program: String, path: String, clock: any DeclaredOption) -> PrintError? {
        switch crossedLimit {
        case .seconds(let s)?:
            return JobLimits.crossed(clock, path: path, "\(program) took longer than \(String(format: "%g", s)) s and was stopped")
        case .cpuSeconds(let s)?:
            return JobLimits.crossed(clock, path: path, "\(program) used more than \(s) s of processor time and was stopped")
        case .memoryBytes(let bytes)?:
            return JobLimits.crossed(LimitOptions.helperMemory, path: path, "\(program) needed more than the \(bytes >> 20) MB of memory it may use")
        case nil:
            return nil
        }
    }
}

extension HelperProgram {
    /// Runs the one-shot helper `name` on `request` for the document `path`, under the job's
    /// `limits` (a helper stopped at one fails naming it and its option), with a scratch PDF
    /// as the request's output, and opens the PDF it wrote (the scratch file is gone by the time
    /// this returns: qpdf maps it). `doing` says what the helper is for, in the error when it is
    /// not installed. A reply's failure is thrown with its code and file (`path` when it names none); a helper that
    /// ends without a reply crashed, and the error says its last words.
    package static func makePDF<Task: Codable & Sendable, Answer: Codable & Sendable>(_ name: String, environmentVariable: String, doing: String, path: String,
                                              request: HelperRequest<Task>, limits: ChildProcess.Limits, answer: Answer.Type = NoAnswer.self)
        throws -> (document: QPDFDocument, reply: HelperReply<Answer>) {
        guard let helper = find(name, environmentVariable: environmentVariable) else {
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
            let said = result.lastErrorLine.isEmpty ? "" : ": " + result.lastErrorLine
            // Stopped from outside (an administrator, a shutdown, the out-of-memory killer), not
            // by its document: the job may work when tried again.
            if result.signalled, let signal = Self.stoppingSignals[result.status] {
                throw PrintError(.jobFailed, path: path, "\(name) was stopped by \(signal) from outside the job\(said)")
            }
            let how = result.signalled ? "crashed (signal \(result.status))"
                : result.output.isEmpty ? "ended without a reply (status \(result.status))"
                : "answered something that is not a reply (\(result.output.count) bytes; status \(result.status))"
            throw PrintError(.renderingFailed, path: path, "\(name) \(how)\(said)")
        }
        if let failure = reply.failure {
            var error = failure.error
            if error.path == nil { error.path = path }
            throw error
        }
        return (try QPDFDocument(path: scratch.scratchPath!), reply)
    }

    /// Signals that stop a process from outside, by name.
    static let stoppingSignals: [Int32: String] = [SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"]
}

/// The helper's side of a one-shot request.
package enum HelperMain {
    /// Reads one request from standard input, runs `task` on it and writes its reply (the
    /// answer, or the `PrintError` it threw as a failure) on standard output; then exits 0, or
    /// 64 when the input is not a request. `warnings` are what the task said along the way.
    package static func answerOnce<Task: Codable & Sendable, Answer: Codable & Sendable>(_ task: Task.Type,
                                                 _ run: (HelperRequest<Task>, inout [String]) throws -> Answer) -> Never {
        var reader = DescriptorLineReader(fd: STDIN_FILENO)
        guard let line = reader.next(), let request = try? JSONDecoder().decode(HelperRequest<Task>.self, from: line) else {
            FileHandle.standardError.write(Data("expected one request line (JSON) on standard input\n".utf8))
            exit(64)
        }
        var warnings: [String] = []
        let reply: HelperReply<Answer>
        do {
            reply = HelperReply(answer: try run(request, &warnings), warnings: warnings)
        } catch let error as PrintError {
            reply = HelperReply(warnings: warnings, failure: HelperFailure(error))
        } catch {
            reply = HelperReply(warnings: warnings, failure: HelperFailure(PrintError(.renderingFailed, path: request.input, "\(error)")))
        }
        HelperLine.write(HelperLine.encode(reply), to: STDOUT_FILENO)
        exit(0)
    }
}
