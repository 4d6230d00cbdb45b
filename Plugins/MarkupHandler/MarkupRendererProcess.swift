import Foundation
import Logging
import SwiftPrintCore

/// The connection to swiftprint-markup, WebKit's process: started on the first markup document
/// and kept for the process's life, so that the display and WebKit start once and serve every
/// document (one at a time). If it dies, the next document starts a new one.
final class MarkupRendererProcess: @unchecked Sendable {
    /// The one renderer of this process.
    static let shared = MarkupRendererProcess()

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var pending = Data()
    private let errors = ErrorTail()
    private let logger = Logger(label: "swiftprint.markup")

    /// The renderer: `$SWIFTPRINT_MARKUP_RENDERER`, beside the running executable, or in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint.
    static var executable: String? { HelperProgram.find("swiftprint-markup", environmentVariable: "SWIFTPRINT_MARKUP_RENDERER") }

    /// Sends `request` and waits for the answer. The renderer enforces the request's time
    /// limit itself; if it has not answered 15 s after that, it is killed.
    func send(_ request: MarkupRenderRequest, path: String) throws -> MarkupRenderResponse {
        lock.lock(); defer { lock.unlock() }
        if process?.isRunning != true { try start(path: path) }
        var line = try JSONEncoder().encode(request)
        line.append(UInt8(ascii: "\n"))
        do { try input!.write(contentsOf: line) } catch {
            stop()
            throw PrintError(.jobFailed, path: path, "the markup renderer stopped before the document was sent\(errors.said)")
        }
        let answer: Data
        switch readLine(deadline: Date().addingTimeInterval(request.timeout + 15)) {
        case .line(let line): answer = line
        case .ended:
            stop()
            throw PrintError(.jobFailed, path: path, "the markup renderer (WebKit) crashed on this document\(errors.said)")
        case .timedOut:
            stop()
            throw PrintError(.jobFailed, path: path, "the markup renderer did not answer in \(Int(request.timeout + 15)) s and was stopped")
        }
        guard let response = try? JSONDecoder().decode(MarkupRenderResponse.self, from: answer) else {
            stop()
            throw PrintError(.jobFailed, path: path, "the markup renderer answered something unreadable\(errors.said)")
        }
        return response
    }

    private func start(path: String) throws {
        guard let executable = Self.executable else {
            throw PrintError(.notAvailable, path: path, "printing HTML needs swiftprint-markup, which is not installed beside swiftprint")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.currentDirectoryURL = URL(fileURLWithPath: ChildProcess.usableWorkingDirectory)
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        let tail = errors, logger = logger
        tail.reset()
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            tail.append(data)
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") { logger.debug("\(line)") }
        }
        do { try ChildProcess.withNoSignalsBlocked { try p.run() } } catch {
            throw PrintError(.notAvailable, path: path, "cannot start \(executable): \(error.localizedDescription)")
        }
        logger.debug("started the markup renderer \(executable) (pid \(p.processIdentifier))")
        process = p
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        pending = Data()
    }

    enum ReadResult {
        case line(Data), ended, timedOut
    }

    /// Reads one line of the renderer's output.
    private func readLine(deadline: Date) -> ReadResult {
        guard let output else { return .ended }
        let fd = output.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[pending.startIndex..<newline]
                pending = Data(pending[(newline + 1)...])
                return .line(Data(line))
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .timedOut }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 3600) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { return .timedOut }
            guard ready > 0 else { return .ended }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .ended }
            pending.append(contentsOf: buffer[0..<n])
        }
    }

    private func stop() {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? input?.close()
        try? output?.close()
        process = nil; input = nil; output = nil
    }

    /// The last lines the renderer wrote on standard error, for messages when it dies.
    final class ErrorTail: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) {
            lock.lock(); defer { lock.unlock() }
            data.append(more)
            if data.count > 4096 { data = Data(data.suffix(2048)) }
        }
        func reset() { lock.lock(); data = Data(); lock.unlock() }
        /// ": <what it said last>" or "": GLib's last ERROR line when there is one (WebKit
        /// aborts with one), else its last line that is not a warning or a crash report.
        var said: String {
            lock.lock(); defer { lock.unlock() }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if let error = lines.last(where: { $0.contains("ERROR **") }) {
                // "** (swiftprint-markup:123): ERROR **: 07:50:13.220: readPIDFromPeer: …"
                let text = error.components(separatedBy: "ERROR **: ").last ?? error
                let message = text.split(separator: " ", maxSplits: 1).last.map(String.init) ?? text
                return ": " + message.prefix(200)
            }
            let crashReport = lines.firstIndex { $0.hasPrefix("*** ") } ?? lines.endIndex
            let last = lines[..<crashReport].last { !$0.contains("WARNING") && !$0.isEmpty && !$0.hasPrefix("swift-runtime:") }
            return last.map { ": " + $0.prefix(200) } ?? ""
        }
    }
}
