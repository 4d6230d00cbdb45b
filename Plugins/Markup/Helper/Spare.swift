import Foundation
import MarkupProtocol
import PrintHelpers

/// The spare renderer (`SpareRenderer`): starts the display, GTK, WebKit and its web process (on
/// a blank page of its own) before any job, listens in its user's folder, serves the first run
/// that connects, and exits when that run lets go. Another spare in the folder (its lock held)
/// makes this one stop at once. With `idle`, it also stops after that many seconds unused.
@MainActor func serveAsSpare(idle: Double?) -> Int32 {
    let started = Date()
    sharing = true
    signal(SIGPIPE, SIG_IGN)
    // A process group of its own: the run that takes it watches the group's memory.
    if getpgrp() != getpid() { _ = setpgid(0, 0) }
    let spare: ReadySpare
    do { spare = try readySpare(started: started) } catch { return error.status }
    let connection = waitForItsRun(spare, started: started, idle: idle)
    // Taken (or idle): no other run may find it from now on.
    unlink(spare.socketPath)
    unlink(spare.infoPath)
    close(spare.listener)
    close(spare.lockFD)
    guard connection >= 0 else {
        FileHandle.standardError.write(Data("swiftprint-markup: spare unused for \(idle ?? 0) s, stopping\n".utf8))
        return 0
    }
    if let peer = SharedRenderer.peer(of: connection) {
        FileHandle.standardError.write(Data("swiftprint-markup: spare taken by pid \(peer.pid)\n".utf8))
    }
    serveTheRun(on: connection)
    return 0
}

/// How a spare that cannot start ends: its exit status, having said why.
struct SpareExit: Error {
    let status: Int32
    init(_ status: Int32, saying message: String? = nil) {
        self.status = status
        if let message { FileHandle.standardError.write(Data("swiftprint-markup: \(message)\n".utf8)) }
    }
}

/// A spare ready to be taken: its lock held, WebKit started, listening, its account written.
struct ReadySpare {
    let listener: Int32
    let lockFD: Int32
    let socketPath: String
    let infoPath: String
    /// Seconds from start to ready.
    let ready: Double
}

/// Makes this process the folder's spare: takes its lock (another spare holding it ends this
/// one at once, status 0), starts everything a job would wait for, listens and writes its
/// account; then says it is ready on standard output, which it closes.
@MainActor func readySpare(started: Date) throws(SpareExit) -> ReadySpare {
    let folder: String
    do { folder = try SharedRenderer.folder(environment: launchEnvironment) } catch { throw SpareExit(73, saying: "\(error)") }
    let socketPath = folder + "/" + SpareRenderer.socketName, infoPath = folder + "/" + SpareRenderer.infoName
    let lockFD = open(folder + "/" + SpareRenderer.lockName, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard lockFD >= 0, flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
        throw SpareExit(0, saying: "a spare renderer is already ready in \(folder)")
    }
    // The file this process runs (as a run finds it by path, which stat follows the same way).
    guard let identity = SpareRenderer.identity(of: "/proc/self/exe") else { throw SpareExit(70, saying: "cannot tell which build this spare is") }
    // Everything a job would wait for, started now: WebKit's web process loads a blank page.
    do {
        let ready = try WebRenderer(runtimeDirectory: runtime)
        ready.outliveParent()
        try ready.load(html: Data("<!DOCTYPE html><html><body></body></html>".utf8), baseURL: "about:blank",
                       allowedFolderURL: nil, scripts: false, timeout: 60)
        renderer = ready
    } catch {
        throw SpareExit(69, saying: "the spare cannot start WebKit: \(error.message)")
    }
    let listener: Int32
    do { listener = try SharedRenderer.listen(at: socketPath) } catch { throw SpareExit(73, saying: "\(error)") }
    let info = SpareRenderer.Info(pid: getpid(), executable: identity, started: started.timeIntervalSince1970,
                                  ready: Date().timeIntervalSince(started))
    guard FileManager.default.createFile(atPath: infoPath, contents: Data(info.line.utf8), attributes: [.posixPermissions: 0o600]) else {
        unlink(socketPath)
        throw SpareExit(73)
    }
    FileHandle.standardError.write(Data(String(format: "swiftprint-markup: spare ready in %.3f s (pid %d), serving %@\n", info.ready, getpid(), socketPath).utf8))
    FileHandle.standardOutput.write(Data(String(format: "ready %.3f\n", info.ready).utf8))
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 { dup2(null, STDOUT_FILENO); close(null) }
    return ReadySpare(listener: listener, lockFD: lockFD, socketPath: socketPath, infoPath: infoPath, ready: info.ready)
}

/// The connection of the one run the spare serves, or -1 when it stayed unused for `idle`
/// seconds. WebKit is kept ticking meanwhile.
@MainActor func waitForItsRun(_ spare: ReadySpare, started: Date, idle: Double?) -> Int32 {
    while true {
        var entry = pollfd(fd: spare.listener, events: Int16(POLLIN), revents: 0)
        let waited = poll(&entry, 1, 1000)
        if waited < 0 && errno == EINTR { continue }
        if waited <= 0 {
            renderer?.idle()
            if let idle, Date().timeIntervalSince(started) - spare.ready >= idle { return -1 }
            continue
        }
        if let connection = acceptFromThisUser(spare.listener) { return connection }
    }
}

/// Answers the run's requests until it lets go of the connection.
@MainActor func serveTheRun(on connection: Int32) {
    currentConnection = 1
    var reader = DescriptorLineReader(fd: connection)
    while true {
        var entry = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, 1000)
        if ready < 0 && errno == EINTR { continue }
        if ready == 0 { renderer?.idle(); continue }
        let open = reader.readAvailable()
        while let line = reader.bufferedLine() { answer(line, to: connection) }
        if !open || ready < 0 { break }
    }
    close(connection)
}
