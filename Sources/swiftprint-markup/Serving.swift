import Foundation
import MarkupHandler

/// Answers request lines read from `input` on `output` until `input` ends.
@MainActor func serveRequests(from input: Int32, to output: Int32) {
    var reader = LineReader(fd: input)
    while let line = reader.next() { answer(line, to: output) }
}

/// Answers one request line. The renderer starts with the first request (a failure to start
/// is every request's answer).
@MainActor func answer(_ line: Data, to output: Int32) {
    guard !line.isEmpty else { return }
    guard let request = try? decoder.decode(MarkupRenderRequest.self, from: line) else {
        respond(MarkupRenderResponse(status: .badRequest, message: "not a request: \(String(decoding: line.prefix(80), as: UTF8.self))"),
                to: output)
        return
    }
    if renderer == nil && startFailure == nil {
        do {
            let started = try WebRenderer(runtimeDirectory: runtime)
            FileHandle.standardError.write(Data("swiftprint-markup: display \(started.display), WebKit started\n".utf8))
            if sharing { started.outliveParent() }
            renderer = started
        } catch { startFailure = error }
    }
    guard let renderer else {
        respond(MarkupRenderResponse(status: startFailure!.status, message: startFailure!.message), to: output)
        return
    }
    do {
        respond(try handle(request, with: renderer), to: output)
    } catch {
        respond(MarkupRenderResponse(status: error.status, message: error.message), to: output)
    }
}

/// Whether this renderer is a shared one (it outlives the run that started it).
nonisolated(unsafe) var sharing = false
/// The connection whose request is being answered: a page loaded for one connection is never
/// printed for another, whose file of the same name may hold other bytes.
nonisolated(unsafe) var currentConnection = 0

/// The shared renderer: one per folder (the lock file decides, so two runs that start one at
/// once end up with one), listening on FOLDER/markup.socket. It tells the run that started it
/// "ready" on standard output once it listens, and serves connections from its own user, a
/// request at a time in turn (WebKit is on this one thread), until none has been open for
/// `keep` seconds.
@MainActor func serveShared(folder: String, keep: Double) {
    sharing = true
    // Its own session: a Ctrl-C meant for the run that started it does not reach it.
    _ = setsid()
    let lockFD = open(folder + "/markup.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard lockFD >= 0, flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
        FileHandle.standardError.write(Data("swiftprint-markup: another renderer serves \(folder)\n".utf8))
        return
    }
    let socketPath = folder + "/markup.socket"
    let listener: Int32
    do { listener = try SharedRenderer.listen(at: socketPath) } catch {
        FileHandle.standardError.write(Data("swiftprint-markup: \(error)\n".utf8))
        return
    }
    FileHandle.standardError.write(Data("swiftprint-markup: serving \(socketPath) (pid \(getpid())), until idle for \(keep) s\n".utf8))
    respondReady()
    var connections: [Int32: (reader: LineReader, token: Int)] = [:]
    var tokens = 0
    var lastUse = Date()
    while true {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            + connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), 1000)
        if ready < 0 && errno == EINTR { continue }
        if ready <= 0 {
            renderer?.idle()
            if connections.isEmpty && Date().timeIntervalSince(lastUse) >= keep { break }
            continue
        }
        for entry in fds where entry.revents != 0 {
            if entry.fd == listener {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                guard SharedRenderer.peer(of: connection)?.uid == getuid() else { close(connection); continue }
                tokens += 1
                connections[connection] = (LineReader(fd: connection), tokens)
                continue
            }
            guard var state = connections[entry.fd] else { continue }
            currentConnection = state.token
            if let line = state.reader.next() {
                answer(line, to: entry.fd)
                connections[entry.fd] = state
            } else {
                close(entry.fd)
                connections[entry.fd] = nil
                lastUse = Date()
            }
        }
    }
    unlink(socketPath)
    FileHandle.standardError.write(Data("swiftprint-markup: idle for \(keep) s, stopping\n".utf8))
}

/// Says "ready" to the run that started this renderer, then lets go of standard output.
private func respondReady() {
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 { dup2(null, STDOUT_FILENO); close(null) }
}

/// Lines from a file descriptor, without their newline.
struct LineReader {
    let fd: Int32
    private var pending = Data()
    private var ended = false

    init(fd: Int32) { self.fd = fd }

    mutating func next() -> Data? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[pending.startIndex..<newline])
                pending = Data(pending[(newline + 1)...])
                return line
            }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending = Data() }
                return pending
            }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ended = true } else { pending.append(contentsOf: buffer[0..<n]) }
        }
    }
}
