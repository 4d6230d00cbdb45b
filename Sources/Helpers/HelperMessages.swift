import Foundation
import PrintModel

// One protocol for every helper program (swiftprint-image, swiftprint-map, swiftprint-markup,
// swiftprint-raster, whose reply follows its raster stream in frames: RasterHelperStream):
// a request is one JSON line — the document, the PDF to write, and the helper's own task with the
// job's typed settings it needs — and its reply is one JSON line: the answer, warnings, or a
// typed failure.
// A one-shot helper reads one request on standard input and writes one reply on standard output
// (`HelperMain.answerOnce`); a long-lived one (the markup renderer, which keeps WebKit warm)
// answers request lines until its input ends, on a pipe or a socket (the markup renderer).

/// A request to a helper.
package struct HelperRequest<Task: Codable & Sendable>: Codable, Sendable {
    /// The document the task reads, if any.
    package var input: String?
    /// The PDF the task writes, if any.
    package var output: String?
    /// What this helper is asked, in its own terms, with the job's typed settings it needs.
    package var task: Task

    package init(input: String? = nil, output: String? = nil, task: Task) {
        self.input = input; self.output = output; self.task = task
    }
}

/// A helper's reply: its answer, or the failure that stopped it; warnings either way.
package struct HelperReply<Answer: Codable & Sendable>: Codable, Sendable {
    package var answer: Answer?
    package var warnings: [String]
    package var failure: HelperFailure?

    package init(answer: Answer? = nil, warnings: [String] = [], failure: HelperFailure? = nil) {
        self.answer = answer; self.warnings = warnings; self.failure = failure
    }
}

/// For tasks with nothing to say back but their PDF.
package struct NoAnswer: Codable, Sendable { package init() {} }

/// The framing: one JSON object, one line.
package enum HelperLine {
    /// `value` as a line to send.
    package static func encode<T: Encodable>(_ value: T) -> Data {
        var line = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Writes `line` whole to `fd`; false when the other end has gone.
    @discardableResult
    package static func write(_ line: Data, to fd: Int32) -> Bool {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                // A connection the renderer reads without blocking (a shared or spare one) also
                // blocks no write: a long reply (a document's text) waits for room, for a
                // minute at most, rather than being cut off.
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    let ready = poll(&room, 1, 60_000)
                    if ready > 0 || (ready < 0 && errno == EINTR) { continue }
                    return false
                }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }
}

/// The error that stopped a helper's task, in its reply, so that the handler that ran it throws
/// it with its code and its file.
package struct HelperFailure: Codable, Sendable {
    var code: String
    var path: String?
    var message: String
    var option: String?

    package init(_ error: PrintError) {
        code = error.code.description
        path = error.path
        message = error.message
        option = error.option
    }

    package var error: PrintError { PrintError(PrintError.Code(named: code), path: path, message, option: option) }
}

/// Lines from a file descriptor, without their newline: how a helper reads requests and its
/// handler reads replies.
package struct DescriptorLineReader {
    package let fd: Int32
    private var pending = Data()
    /// The other end has closed (or the descriptor failed).
    package private(set) var ended = false

    package init(fd: Int32) { self.fd = fd }

    /// The next line, reading (and waiting) as needed; nil at the end of input.
    package mutating func next() -> Data? {
        while true {
            if let line = bufferedLine() { return line }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending = Data() }
                return pending
            }
            readOnce()
        }
    }

    /// Reads everything that has arrived on a non-blocking descriptor; false once the other end
    /// has closed.
    package mutating func readAvailable() -> Bool {
        while readOnce() {}
        return !ended
    }

    /// One read; true when it got bytes (there may be more).
    @discardableResult
    package mutating func readOnce() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { pending.append(contentsOf: buffer[0..<n]); return true }
            if n < 0 && errno == EINTR { continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { ended = true }
            return false
        }
    }

    /// A whole line already read, if there is one.
    package mutating func bufferedLine() -> Data? {
        guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Data(pending[pending.startIndex..<newline])
        pending = Data(pending[(newline + 1)...])
        return line
    }
}
