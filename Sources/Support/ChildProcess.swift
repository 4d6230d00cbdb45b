import Foundation
import PrintModel
import CSpawnShim

/// Runs a helper program (a converter named in types.tsv, swiftprint-image, swiftprint-map) with
/// argv — never a shell — no input or a file's, and both output pipes drained while it runs, so that a
/// chatty child can never block on a full pipe and look like a hang; killed after `timeout`
/// seconds.
package enum ChildProcess {
    package struct Result {
        package var status: Int32
        /// Killed by a signal (status is then the signal's number).
        package var signalled: Bool
        package var timedOut: Bool
        package var output: Data
        package var errors: Data

        /// The last line it wrote on standard error, if any.
        package var lastErrorLine: String {
            String(decoding: errors.suffix(300), as: UTF8.self).split(separator: "\n").last.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
        }
    }

    /// Runs `executable` with `arguments` in `workingDirectory` (default: `usableWorkingDirectory`),
    /// the file `input` (if any) on its standard input; throws only when it cannot start.
    ///
    /// posix_spawn, not Foundation's Process: Process watches its children through CFSocket,
    /// whose manager thread opens a pair of loopback UDP sockets in every process that starts
    /// one, and a job that reads only local files must open no socket at all.
    package static func run(_ executable: String, _ arguments: [String], timeout: Double? = nil,
                            workingDirectory: String? = nil, input: String? = nil) throws -> Result {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard SPPipeCloseOnExec(&out) == 0 else { throw PrintError.system(.notAvailable, path: executable, "cannot make a pipe", errno: errno) }
        guard SPPipeCloseOnExec(&err) == 0 else {
            let e = errno
            close(out[0]); close(out[1])
            throw PrintError.system(.notAvailable, path: executable, "cannot make a pipe", errno: e)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        SPSpawnFileActionsAddChdir(&actions, workingDirectory ?? usableWorkingDirectory)
        // The child starts with no signal blocked and every signal at its default: threads of a
        // thread pool block most signals, and a daemon started from one (cupsd, restarted by
        // `swiftprint install`) would never see SIGCHLD and never reap its filters.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(out[1])
        close(err[1])
        guard started == 0 else {
            close(out[0]); close(err[0])
            throw PrintError.system(.notAvailable, path: executable, "cannot start it", errno: started)
        }
        defer { close(out[0]); close(err[0]) }
        return drain(pid: pid, output: out[0], errors: err[0], timeout: timeout)
    }

    /// Reads both pipes until they close and reaps the child; kills it after `timeout` seconds.
    /// A grandchild may hold the pipes open after the child has gone: they are then read for
    /// two seconds more, not forever.
    private static func drain(pid: pid_t, output: Int32, errors: Int32, timeout: Double?) -> Result {
        let start = monotonicSeconds()
        var data = [output: Data(), errors: Data()]
        var open = [output, errors]
        var status: Int32?
        var exitedAt: Double?
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty || status == nil {
            let now = monotonicSeconds()
            if status == nil {
                var raw: Int32 = 0
                // Blocking is safe only when nothing is left to read and no clock runs.
                let reaped = waitpid(pid, &raw, open.isEmpty && timeout == nil ? 0 : WNOHANG)
                // ECHILD: something else reaped it (SIGCHLD ignored); its status is lost, so say it failed.
                if reaped == pid || (reaped == -1 && errno == ECHILD) { status = reaped == pid ? raw : 255 << 8; exitedAt = now; continue }
                if let timeout, !timedOut, now - start > timeout { timedOut = true; kill(pid, SIGKILL) }
            } else if let exitedAt, now - exitedAt > 2 {
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), open.isEmpty ? 5 : 100) > 0 else { continue }
            for fd in fds where fd.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fd.fd, $0.baseAddress, $0.count) }
                if n > 0 { data[fd.fd]!.append(contentsOf: buffer[..<n]) } else if n == 0 || errno != EINTR { open.removeAll { $0 == fd.fd } }
            }
        }
        let raw = status ?? 0
        let signalled = raw & 0x7f != 0
        return Result(status: signalled ? raw & 0x7f : (raw >> 8) & 0xff, signalled: signalled, timedOut: timedOut,
                      output: data[output]!, errors: data[errors]!)
    }

    private static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The folder a child starts in: ours, or `/` when we cannot enter ours. A child is sent
    /// into its folder by path, which fails when that path is closed to us: a CUPS filter runs
    /// as `lp` in whatever folder cupsd was started from, often /root. Relative paths could not
    /// be opened from such a folder anyway, so `/` loses nothing.
    package static var usableWorkingDirectory: String {
        let here = FileManager.default.currentDirectoryPath
        return access(here, X_OK) == 0 ? here : "/"
    }

    /// Runs `body` with no signal blocked on this thread. A child starts with its parent
    /// thread's signal mask, and threads of a thread pool block most signals: a daemon started
    /// from one (cupsd, restarted by `swiftprint install`) would never see SIGCHLD and never
    /// reap its filters.
    package static func withNoSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t(), old = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return try body()
    }
}
