import Foundation
import MarkupProtocol
import PrintHelpers

/// Answers request lines read from `input` on `output` until `input` ends.
@MainActor func serveRequests(from input: Int32, to output: Int32) {
    var reader = DescriptorLineReader(fd: input)
    while let line = reader.next() { answer(line, to: output) }
}

/// Answers one request line. The renderer starts with the first request (a failure to start
/// is every request's answer).
@MainActor func answer(_ line: Data, to output: Int32) {
    guard !line.isEmpty else { return }
    guard let request = try? decoder.decode(HelperRequest<MarkupTask>.self, from: line) else {
        respond(RenderFailure(.badRequest, "not a request: \(String(decoding: line.prefix(80), as: UTF8.self))").reply, to: output)
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
        respond(startFailure!.reply, to: output)
        return
    }
    do {
        respond(try handle(request, with: renderer), to: output)
    } catch {
        respond(error.reply, to: output)
    }
    if let cleanup = cleanupAfterReply {
        cleanupAfterReply = nil
        _ = try? renderer.evaluate(cleanup.script, timeout: cleanup.timeout)
    }
}

/// Whether this renderer is a shared one (it outlives the run that started it).
@MainActor var sharing = false
/// The connection whose request is being answered: a page loaded for one connection is never
/// printed for another, whose file of the same name may hold other bytes.
@MainActor var currentConnection = 0

/// The shared renderer: one per folder (the lock file decides, so two runs that start one at
/// once end up with one), listening on FOLDER/markup.socket. It tells the run that started it
/// "ready" on standard output once it listens, and serves connections from its own user, a
/// request at a time in turn (WebKit is on this one thread), until no request has come for
/// `keep` seconds; then it closes every connection (a run that sends again starts a new one).
/// It runs in a process group of its own (Foundation starts it so), which a Ctrl-C meant for
/// the run that started it does not reach.
@MainActor func serveShared(folder: String, keep: Double) {
    sharing = true
    // A client that goes away mid-answer must not end the renderer for everyone else.
    signal(SIGPIPE, SIG_IGN)
    let socketPath = folder + "/markup.socket"
    guard let listener = listenAsTheFoldersRenderer(folder: folder, socketPath: socketPath) else { return }
    FileHandle.standardError.write(Data("swiftprint-markup: serving \(socketPath) (pid \(getpid())), until idle for \(keep) s\n".utf8))
    respondReady()
    var connections: [Int32: (reader: DescriptorLineReader, token: Int)] = [:]
    var tokens = 0
    var lastUse = Date()
    serving: while true {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            + connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), 1000)
        if ready < 0 && errno == EINTR { continue }
        if ready <= 0 {
            renderer?.idle()
            if Date().timeIntervalSince(lastUse) >= keep { break }
            continue
        }
        for entry in fds where entry.revents != 0 {
            if entry.fd == listener {
                guard let connection = acceptFromThisUser(listener) else { continue }
                tokens += 1
                connections[connection] = (DescriptorLineReader(fd: connection), tokens)
                continue
            }
            guard var state = connections[entry.fd] else { continue }
            currentConnection = state.token
            let open = state.reader.readAvailable()
            while let line = state.reader.bufferedLine() {
                answer(line, to: entry.fd)
                lastUse = Date()
                // WebKit that cannot start will not start for the next run either: let that
                // run start a renderer of its own, or a new shared one.
                if startFailure != nil { break serving }
            }
            if open {
                connections[entry.fd] = state
            } else {
                close(entry.fd)
                connections[entry.fd] = nil
            }
        }
    }
    // The socket goes first, so that no run connects to a renderer that is stopping.
    unlink(socketPath)
    close(listener)
    for fd in connections.keys { close(fd) }
    FileHandle.standardError.write(Data("swiftprint-markup: \(startFailure == nil ? "idle for \(keep) s" : "WebKit cannot start"), stopping\n".utf8))
}

/// Takes the folder's lock and listens on its socket; nil (said on standard error) when another
/// renderer serves the folder or the socket cannot be made.
func listenAsTheFoldersRenderer(folder: String, socketPath: String) -> Int32? {
    let lockFD = open(folder + "/markup.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard lockFD >= 0, flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
        FileHandle.standardError.write(Data("swiftprint-markup: another renderer serves \(folder)\n".utf8))
        return nil
    }
    // The log (standard error, opened for appending by the run that started this one) starts
    // afresh only now that this renderer is the folder's. The lock is held until exit.
    _ = ftruncate(STDERR_FILENO, 0)
    do { return try SharedRenderer.listen(at: socketPath) } catch {
        FileHandle.standardError.write(Data("swiftprint-markup: \(error)\n".utf8))
        return nil
    }
}

/// A new connection, non-blocking, when it comes from this renderer's own user.
func acceptFromThisUser(_ listener: Int32) -> Int32? {
    let connection = accept(listener, nil, nil)
    guard connection >= 0 else { return nil }
    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
    // Never blocks on a client that stops halfway through a line.
    _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
    guard SharedRenderer.peer(of: connection)?.uid == getuid() else { close(connection); return nil }
    return connection
}

/// Says "ready" to the run that started this renderer, then lets go of standard output.
private func respondReady() {
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 { dup2(null, STDOUT_FILENO); close(null) }
}
