import Foundation
import HandlerSupport
import Logging
import MarkupProtocol
import Synchronization

/// The connection to swiftprint-markup, WebKit's process: started on the first markup document
/// and kept for the process's life, so that the display and WebKit start once and serve every
/// document (one at a time). If it dies, the next document starts a new one. With
/// `SWIFTPRINT_MARKUP_KEEP`, the connection is to the user's shared renderer instead
/// (`SharedRenderer`), started when none runs. Otherwise a spare renderer waiting for a run
/// (`SpareRenderer`) is taken before a new renderer is started.
// Safe: its mutable fields are used only by `send` and what it calls, under `lock`.
final class MarkupRendererProcess: @unchecked Sendable {
    /// The one renderer of this process.
    static let shared = MarkupRendererProcess()

    private let lock = NSLock()
    /// A renderer of this process's own, on pipes, in a process group with WebKit's processes.
    private var child: ChildProcess.Running?
    /// Its standard error, read as it comes (for the log, and the error when it dies).
    private var errorReader: FileHandle?
    /// Or a connection to the shared renderer, and where its log is.
    private var sharedConnection: (fd: Int32, log: String)?
    /// Or to a spare renderer this run took (`SpareRenderer`): this run's alone, as a child is.
    private var spareConnection: Int32?
    /// The process group of the renderer answering (its and WebKit's processes), watched for
    /// the memory limit while a request runs.
    private var rendererGroup: pid_t?
    /// The renderer's answers: from the child's standard output, or the shared renderer's socket.
    private var output: DescriptorLineReader?
    private let errors = ErrorTail()
    private let logger = Logger(label: "swiftprint.markup")

    /// The renderer: `$SWIFTPRINT_MARKUP_RENDERER`, beside the running executable, or in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint.
    static var executable: String? { Installation.helper("swiftprint-markup", override: "SWIFTPRINT_MARKUP_RENDERER") }

    /// Sends `request` and waits for the answer. The renderer enforces the request's time
    /// limit itself; if it has not answered 15 s after that, it is killed (a shared renderer,
    /// which answers other runs' requests in turn, gets longer and is left running). A shared
    /// renderer that has gone away (stopped when idle, or killed) is reconnected to, or started
    /// again, once.
    /// `limits.memoryBytes` bounds what the renderer and WebKit's processes hold resident
    /// while it answers; its clock is the request's.
    func send(_ request: HelperRequest<MarkupTask>, path: String, limits: ChildProcess.Limits) throws -> HelperReply<PageStyleReport> {
        lock.lock(); defer { lock.unlock() }
        let line = HelperLine.encode(request)
        var reconnected = false
        while true {
            if child?.isRunning != true && sharedConnection == nil && spareConnection == nil { try start(path: path) }
            let shared = sharedConnection != nil
            // This request's peak, not an earlier document's (nor another run's, when shared).
            if limits.memoryBytes != nil, let group = rendererGroup { ChildProcess.resetPeakResidentBytes(ofGroup: group) }
            let failure: String
            do { try write(line) } catch {
                stop()
                if shared && !reconnected { reconnected = true; continue }
                throw PrintError(.jobFailed, path: path, "the markup renderer stopped before the document was sent\(errors.said)")
            }
            let limit = shared ? request.task.timeout * 4 + 15 : request.task.timeout + 15
            switch readLine(deadline: Date().addingTimeInterval(limit), memoryLimit: limits.memoryBytes) {
            case .line(let answer):
                guard let reply = try? JSONDecoder().decode(HelperReply<PageStyleReport>.self, from: answer) else {
                    stop()
                    throw PrintError(.jobFailed, path: path, "the markup renderer answered something unreadable\(errors.said)")
                }
                return reply
            case .ended:
                stop()
                // A shared renderer closes its connections when it stops after being idle.
                if shared && !reconnected { reconnected = true; continue }
                failure = "the markup renderer (WebKit) ended while printing this document (it crashed, or was stopped from outside)\(errors.said)"
            case .overMemory(let bytes):
                stop()
                throw JobLimits.crossed(LimitOptions.helperMemory, path: path,
                                        "the markup renderer (WebKit) needed more than the \(bytes >> 20) MB of memory it may use, and was stopped")
            case .timedOut:
                stop()
                failure = shared
                    ? "the shared markup renderer did not answer in \(Int(limit)) s (it serves other runs too; without SWIFTPRINT_MARKUP_KEEP a run has its own)"
                    : "the markup renderer did not answer in \(Int(limit)) s and was stopped"
            }
            throw PrintError(.jobFailed, path: path, failure)
        }
    }

    private func start(path: String) throws {
        guard let executable = Self.executable else {
            throw PrintError(.notAvailable, path: path, "printing HTML needs swiftprint-markup, which is not installed beside swiftprint")
        }
        if let keep = SharedRenderer.keepSeconds() {
            do {
                try connectShared(executable: executable, keep: keep)
                return
            } catch {
                logger.warning("the shared markup renderer cannot be used (\(error)); this run starts its own")
            }
        }
        // A spare started ahead of this run, waiting with WebKit running: this run's alone.
        if let spare = SpareRenderer.take(executable: executable) {
            logger.debug(
                "using a spare markup renderer (pid \(spare.info.pid)), started \(String(format: "%.3f", Date().timeIntervalSince1970 - spare.info.started)) s ago, ready after \(String(format: "%.3f", spare.info.ready)) s")
            spareConnection = spare.fd
            rendererGroup = spare.info.pid
            output = DescriptorLineReader(fd: spare.fd)
            errors.reset()
            return
        }
        let started: ChildProcess.Running
        do { started = try ChildProcess.start(executable, []) } catch {
            throw PrintError(.notAvailable, path: path, "cannot start \(executable): \(error.localizedDescription)")
        }
        let tail = errors, logger = logger
        tail.reset()
        let reader = FileHandle(fileDescriptor: started.errors, closeOnDealloc: false)
        reader.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            tail.append(data)
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") { logger.debug("\(line)") }
        }
        logger.debug("started the markup renderer \(executable) (pid \(started.pid))")
        child = started
        rendererGroup = started.pid
        errorReader = reader
        output = DescriptorLineReader(fd: started.output)
    }

    /// Sends a request line: on the pipe, or on the socket without SIGPIPE when the shared
    /// renderer has gone (the error says so instead).
    private func write(_ line: Data) throws {
        guard let fd = sharedConnection?.fd ?? spareConnection else { return try child!.send(line) }
        try line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw PrintError.system(.jobFailed, path: nil, "the shared renderer's connection closed", errno: errno) }
                offset += n
            }
        }
    }

    /// Connects to the user's shared renderer, starting it first when none listens.
    private func connectShared(executable: String, keep: Double) throws {
        let folder = try SharedRenderer.folder()
        let socket = folder + "/markup.socket", log = folder + "/markup.log"
        var fd = SharedRenderer.connect(to: socket)
        if fd == nil {
            try startShared(executable: executable, folder: folder, keep: keep, log: log)
            fd = SharedRenderer.connect(to: socket)
        }
        guard let fd else { throw PrintError(.notAvailable, path: socket, "no shared renderer answers there (see \(log))") }
        guard let peer = SharedRenderer.peer(of: fd) else {
            close(fd)
            throw PrintError(.notAvailable, path: socket, "cannot tell who answers there")
        }
        logger.debug("using the shared markup renderer \(socket) (pid \(peer.pid))")
        sharedConnection = (fd, log)
        // A shared renderer runs in a session, and so a process group, of its own.
        rendererGroup = peer.pid
        output = DescriptorLineReader(fd: fd)
        errors.reset()
    }

    /// Starts a shared renderer in `folder` and waits until it listens (it says "ready"). It
    /// ends without a word when another run started one at the same moment; that one serves.
    private func startShared(executable: String, folder: String, keep: Double, log: String) throws {
        // Appended to: the renderer empties it once it knows it is the folder's (a run that
        // loses a race to start one must not cut the winner's log).
        let logFD = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard logFD >= 0 else { throw PrintError.system(.notAvailable, path: log, "cannot write the shared renderer's log", errno: errno) }
        defer { close(logFD) }
        // A session of its own: it outlives this run, and a terminal's Ctrl-C is not for it.
        let server: ChildProcess.Running
        do {
            server = try ChildProcess.start(executable, ["--serve", folder, "--keep", String(format: "%g", keep)],
                                            workingDirectory: "/",
                                            input: false, errors: .descriptor(logFD), newSession: true)
        } catch {
            throw PrintError(.notAvailable, path: executable, "cannot start the shared renderer: \(error.localizedDescription)")
        }
        defer { server.closePipes() }
        logger.debug("started a shared markup renderer (pid \(server.pid)), kept \(keep) s after its last document")
        // "ready\n" once it listens, or the end of output when it stops (or another serves).
        var reader = DescriptorLineReader(fd: server.output)
        let said = reader.next()
        if said != Data("ready".utf8) { logger.debug("the new shared renderer did not say ready; another may serve") }
    }

    enum ReadResult {
        case line(Data), ended, timedOut, overMemory(Int)
    }

    /// Reads one line of the renderer's output.
    /// WebKit's processes are measured by the most they have held resident, all together,
    /// every quarter of a second and once more when the answer comes: each reserves about 5 GB
    /// of address space it never uses, so no rlimit can bound them without stopping them at
    /// once. A peak between two looks, or in an answer quicker than one, is seen all the same.
    private func readLine(deadline: Date, memoryLimit: Int?) -> ReadResult {
        guard var reader = output else { return .ended }
        defer { output = reader }
        let overMemory = { () -> Bool in
            guard let memoryLimit, let group = self.rendererGroup else { return false }
            return ChildProcess.peakResidentBytes(ofGroup: group) > memoryLimit
        }
        while true {
            if let line = reader.bufferedLine() { return overMemory() ? .overMemory(memoryLimit!) : .line(line) }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .timedOut }
            if overMemory() { return .overMemory(memoryLimit!) }
            var poller = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, memoryLimit == nil ? 3600 : 0.25) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            guard ready > 0 else { return .ended }
            reader.readOnce()
            if reader.ended { return .ended }
        }
    }

    /// Ends this run's renderer, or its connection to the shared one (which other runs may be
    /// using, so it is left running).
    private func stop() {
        if let child {
            errorReader?.readabilityHandler = nil
            child.stop()
            child.closePipes()
        }
        if let shared = sharedConnection {
            close(shared.fd)
            // Its last words are in its log, for the error message.
            if let log = FileHandle(forReadingAtPath: shared.log) {
                errors.reset()
                errors.append((try? log.readToEnd()).map { Data($0.suffix(4096)) } ?? Data())
                try? log.close()
            }
        }
        // A spare ends when its run lets go.
        if let spare = spareConnection { close(spare) }
        child = nil; errorReader = nil; sharedConnection = nil; spareConnection = nil; output = nil; rendererGroup = nil
    }

    /// The last lines the renderer wrote on standard error, for messages when it dies.
    final class ErrorTail: Sendable {
        // Bytes, not Data: LeakSanitizer cannot see a reference kept in Data's enum (its case
        // bits ride in the pointer), and reported the tail as leaked in every fuzz run.
        private let data = Mutex<[UInt8]>([])
        func append(_ more: Data) {
            data.withLock { data in
                data += more
                if data.count > 4096 { data = Array(data.suffix(2048)) }
            }
        }
        func reset() { data.withLock { $0 = [] } }
        /// ": <what it said last>" or "": GLib's last ERROR line when there is one (WebKit
        /// aborts with one), else its last line that is not a warning or a crash report.
        var said: String {
            let lines = String(decoding: data.withLock { $0 }, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
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
