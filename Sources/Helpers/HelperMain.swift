import Foundation
import PrintModel

/// The helper's side of a one-shot request.
package enum HelperMain {
    /// Reads one request from standard input, runs `task` on it and writes its reply (the
    /// answer, or the `PrintError` it threw as a failure) on standard output; then exits 0, or
    /// 64 when the input is not a request. `warnings` are what the task said along the way.
    package static func answerOnce<Task: Codable & Sendable, Answer: Codable & Sendable>(_ task: Task.Type,
                                                 _ run: (HelperRequest<Task>, inout [String]) throws -> Answer) -> Never {
        answerOnce(task, replying: { HelperLine.write($0, to: STDOUT_FILENO) }, run)
    }

    /// `answerOnce` for a helper whose standard output carries more than its reply (the raster
    /// helper's stream): `reply` sends the reply's line its own way.
    package static func answerOnce<Task: Codable & Sendable, Answer: Codable & Sendable>(_ task: Task.Type, replying reply: (Data) -> Void,
                                                 _ run: (HelperRequest<Task>, inout [String]) throws -> Answer) -> Never {
        var reader = DescriptorLineReader(fd: STDIN_FILENO)
        guard let line = reader.next(), let request = try? JSONDecoder().decode(HelperRequest<Task>.self, from: line) else {
            FileHandle.standardError.write(Data("expected one request line (JSON) on standard input\n".utf8))
            exit(64)
        }
        var warnings: [String] = []
        let answer: HelperReply<Answer>
        do {
            answer = HelperReply(answer: try run(request, &warnings), warnings: warnings)
        } catch let error as PrintError {
            answer = HelperReply(warnings: warnings, failure: HelperFailure(error))
        } catch {
            answer = HelperReply(warnings: warnings, failure: HelperFailure(PrintError(.renderingFailed, path: request.input, "\(error)")))
        }
        reply(HelperLine.encode(answer))
        exit(0)
    }
}
