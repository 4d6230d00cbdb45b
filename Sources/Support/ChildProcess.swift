import Foundation
import PrintModel
import CSpawnShim
import Synchronization

/// The one way swiftprint runs another program (a converter named in types.tsv, the helpers
/// swiftprint-image, swiftprint-map, swiftprint-markup and swiftprint-raster, CUPS's tools): with argv, never a
/// shell; in a process group of its own, so that it is stopped whole, grandchildren included;
/// with no descriptor of ours but its standard three; under `Limits`.
///
/// `run` is the one-shot transport: no input or a file's, both outputs drained while it runs
/// (a chatty child can never block on a full pipe and look like a hang), its whole group killed
/// at the time limit. `start` is the long-lived one: pipes both ways, for a server such as the
/// markup renderer, which the caller stops with `Running.stop`.
///
/// Not Foundation's Process: Process watches its children through CFSocket, whose manager
/// thread opens a pair of loopback UDP sockets in every process that starts one (a job that
/// reads only local files must open no socket at all), and it can set neither limits nor a
/// process group.
package enum ChildProcess {
    /// What bounds a child. Each limit is enforced by the kernel on the child and everything it
    /// starts, or (the clock) by killing its process group.
    package struct Limits: Sendable, Equatable {
        /// Wall-clock seconds before the whole process group is killed.
        package var seconds: Double?
        /// Seconds of processor time (RLIMIT_CPU): SIGXCPU, then SIGKILL.
        package var cpuSeconds: Int?
        /// Bytes of private writable memory (RLIMIT_DATA): heap and anonymous mappings, each
        /// process of the group on its own. Not RLIMIT_AS: WebKit and JavaScriptCore reserve
        /// tens of gigabytes of address space they never use, and fail at once under it.
        package var memoryBytes: Int?
        /// The largest file it may write (RLIMIT_FSIZE).
        package var fileBytes: Int?

        package init(seconds: Double? = nil, cpuSeconds: Int? = nil, memoryBytes: Int? = nil, fileBytes: Int? = nil) {
            self.seconds = seconds; self.cpuSeconds = cpuSeconds; self.memoryBytes = memoryBytes; self.fileBytes = fileBytes
        }

        package static let none = Limits()
    }

    package struct Result {
        package var status: Int32
        /// Killed by a signal (status is then the signal's number).
        package var signalled: Bool
        /// Killed at `Limits.seconds`.
        package var timedOut: Bool
        package var output: Data
        package var errors: Data
        /// The processor time it used, user and system (from wait4).
        package var processorSeconds = 0.0
        /// What it ran under.
        package var limits = Limits.none

        /// The last line it wrote on standard error, if any.
        package var lastErrorLine: String {
            String(decoding: errors.suffix(300), as: UTF8.self).split(separator: "\n").last.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
        }

        /// The limit it crossed, when its end says so: the clock (killed at it), processor
        /// time (SIGXCPU, or SIGKILL at the hard limit with no clock run out, having used that
        /// much: a SIGKILL from anyone else is not the limit), or memory (an allocation failure
        /// in its last words: malloc's, C++'s, GLib's or Swift's).
        package var crossedLimit: CrossedLimit? {
            if timedOut, let seconds = limits.seconds { return .seconds(seconds) }
            if let cpu = limits.cpuSeconds, signalled,
               status == SIGXCPU || (status == SIGKILL && processorSeconds >= Double(cpu)) { return .cpuSeconds(cpu) }
            if let memory = limits.memoryBytes, signalled || status != 0 {
                let said = String(decoding: errors.suffix(4096), as: UTF8.self).lowercased()
                if Self.allocationFailures.contains(where: said.contains) { return .memoryBytes(memory) }
            }
            return nil
        }

        /// How programs say an allocation failed: glibc's strerror(ENOMEM), bash, C++, GLib,
        /// Swift's runtime, Python.
        static let allocationFailures = ["cannot allocate", "out of memory", "bad_alloc", "failed to allocate",
                                         "could not allocate", "memory exhausted", "allocation failed", "memoryerror"]
    }

    package enum CrossedLimit: Equatable, Sendable {
        case seconds(Double), cpuSeconds(Int), memoryBytes(Int)
    }

    /// Runs `executable` with `arguments` in `workingDirectory` (default: `usableWorkingDirectory`),
    /// the file `input` (if any) on its standard input, under `limits`; throws only when it
    /// cannot start.
    package static func run(_ executable: String, _ arguments: [String], limits: Limits = .none,
                            workingDirectory: String? = nil, input: String? = nil) throws -> Result {
        try run(executable, arguments, limits: limits, workingDirectory: workingDirectory, input: input, consume: nil)
    }

    /// `run` for a child that streams what it makes on its standard output: each part is handed
    /// to `consume` as it arrives, not kept (`Result.output` stays empty), so that the child's
    /// output costs this process a pipe's read, whatever its size. `consume` returns true when
    /// the part shows progress (a finished sheet), which starts the clock again: `limits.seconds`
    /// is then the longest the child may go without progress, not counting the time `consume`
    /// itself takes (a slow reader of the job's output, a printer out of paper, is not the
    /// child's doing). When `consume` throws (the output's disk is full, the part is not what
    /// the child should say), the child's group is killed and reaped, and the error rethrown.
    /// The child is killed too if the calling thread ends first (a cancelled job's process
    /// stopped by a signal): it would otherwise draw until its next write.
    package static func run(_ executable: String, _ arguments: [String], limits: Limits = .none, input: String? = nil,
                            consume: (UnsafeRawBufferPointer) throws -> Bool) throws -> Result {
        try withoutActuallyEscaping(consume) { consume in
            try run(executable, arguments, limits: limits, workingDirectory: nil, input: input, consume: .some(consume), killedWithStarter: true)
        }
    }

    private static func run(_ executable: String, _ arguments: [String], limits: Limits, workingDirectory: String?, input: String?,
                            consume: ((UnsafeRawBufferPointer) throws -> Bool)?, killedWithStarter: Bool = false) throws -> Result {
        let stdin = Glibc.open(input ?? "/dev/null", O_RDONLY | O_CLOEXEC)
        guard stdin >= 0 else { throw PrintError.system(.notAvailable, path: input ?? "/dev/null", "cannot open it as the input of \(executable)", errno: errno) }
        defer { close(stdin) }
        let out = try pipe(for: executable)
        let err: (read: Int32, write: Int32)
        do { err = try pipe(for: executable) } catch { close(out.read); close(out.write); throw error }
        let pid: pid_t
        do {
            pid = try spawn(executable, arguments, descriptors: (stdin, out.write, err.write), workingDirectory: workingDirectory,
                            limits: limits, newSession: false, killedWithStarter: killedWithStarter)
        } catch {
            [out.read, out.write, err.read, err.write].forEach { close($0) }
            throw error
        }
        close(out.write)
        close(err.write)
        defer { close(out.read); close(err.read) }
        var (result, consumeError) = drain(pid: pid, output: out.read, errors: err.read, timeout: limits.seconds, consume: consume)
        if let consumeError { throw consumeError }
        result.limits = limits
        return result
    }

    /// `run` with only a clock: for CUPS's own tools, which are trusted with memory.
    package static func run(_ executable: String, _ arguments: [String], timeout: Double?,
                            workingDirectory: String? = nil, input: String? = nil) throws -> Result {
        try run(executable, arguments, limits: Limits(seconds: timeout), workingDirectory: workingDirectory, input: input)
    }

    /// A child that keeps running: its pipes, its process group, and how to stop it.
    package final class Running: Sendable {
        package let pid: pid_t
        /// Its standard input (write to it), or -1 when it reads nothing; owned here.
        package let input: Int32
        /// Its standard output (read it), or -1 when it goes elsewhere; owned here.
        package let output: Int32
        /// Its standard error (read it), or -1 when it goes elsewhere; owned here.
        package let errors: Int32
        /// Reaped: its pid may be another process's by now.
        private let ended = Mutex(false)

        init(pid: pid_t, input: Int32, output: Int32, errors: Int32) {
            self.pid = pid; self.input = input; self.output = output; self.errors = errors
        }

        /// Whether it has not ended (and been reaped).
        package var isRunning: Bool {
            ended.withLock { ended in
                guard !ended else { return false }
                var status: Int32 = 0
                let r = waitpid(pid, &status, WNOHANG)
                ended = r == pid || (r == -1 && errno == ECHILD)
                return !ended
            }
        }

        /// Kills its whole process group (WebKit's processes, a converter's children) and
        /// reaps it. Its group's id stays reserved while any of them lives, so the signal
        /// reaches no other process.
        package func stop() {
            ended.withLock { ended in
                kill(-pid, SIGKILL)
                guard !ended else { return }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                ended = true
            }
        }

        /// Writes all of `bytes` to its standard input. A child that has gone makes this throw,
        /// not kill us: SIGPIPE is blocked on this thread for the write, and the one it raised
        /// is taken before it is unblocked.
        package func send(_ bytes: Data) throws {
            var pipeSignal = sigset_t(), old = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, &old)
            defer {
                var pending = sigset_t()
                sigpending(&pending)
                if sigismember(&pending, SIGPIPE) == 1 {
                    var none = timespec()
                    sigtimedwait(&pipeSignal, nil, &none)
                }
                pthread_sigmask(SIG_SETMASK, &old, nil)
            }
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(input, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw PrintError.system(.jobFailed, path: nil, "the program \(pid) stopped reading", errno: errno) }
                    offset += n
                }
            }
        }

        /// Closes the descriptors it still holds (after `stop`, or once it has ended).
        package func closePipes() {
            for fd in [input, output, errors] where fd >= 0 { close(fd) }
        }
    }

    /// How a long-lived child's standard output and error are connected.
    package enum Stream {
        /// A pipe to this process (`Running.output`, `Running.errors`).
        case pipe
        /// A descriptor of ours (a log file, another pipe), given to it as is.
        case descriptor(Int32)
    }

    /// Starts `executable` with its standard input a pipe from us (or /dev/null when
    /// `input` is false, or `inputDescriptor`, one of ours given as is), its output and errors
    /// as `output` and `errors`, under `limits` (whose clock is the caller's to keep).
    /// `newSession`: a server that outlives this process, and no terminal's signals reach.
    /// `killedWithStarter`: SIGKILLed when the calling thread ends (start it from a thread
    /// that lives as long as the work does). `keepsDescriptorsBelow`: our descriptors from 3
    /// up to this one are its too (a CUPS backend's back and side channels, 3 and 4).
    package static func start(_ executable: String, _ arguments: [String], limits: Limits = .none,
                              workingDirectory: String? = nil, input: Bool = true, inputDescriptor: Int32? = nil,
                              output: Stream = .pipe, errors: Stream = .pipe,
                              newSession: Bool = false, killedWithStarter: Bool = false, keepsDescriptorsBelow: Int32 = 3) throws -> Running {
        var opened: [Int32] = [], ours: [Int32] = [], theirs: [Int32] = []
        func cleanUp() { opened.forEach { close($0) } }
        do {
            let stdin: Int32
            if let inputDescriptor {
                stdin = inputDescriptor; ours.append(-1); theirs.append(inputDescriptor)
            } else if input {
                let p = try pipe(for: executable); opened += [p.read, p.write]; stdin = p.read; ours.append(p.write); theirs.append(p.read)
            } else {
                stdin = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC); opened.append(stdin); ours.append(-1); theirs.append(stdin)
            }
            for stream in [output, errors] {
                switch stream {
                case .pipe:
                    let p = try pipe(for: executable); opened += [p.read, p.write]; ours.append(p.read); theirs.append(p.write)
                case .descriptor(let fd):
                    ours.append(-1); theirs.append(fd)
                }
            }
            let pid = try spawn(executable, arguments, descriptors: (theirs[0], theirs[1], theirs[2]), workingDirectory: workingDirectory,
                                limits: limits, newSession: newSession, killedWithStarter: killedWithStarter,
                                keepsDescriptorsBelow: keepsDescriptorsBelow)
            // Their ends are theirs now; a descriptor the caller gave stays the caller's.
            for fd in theirs where opened.contains(fd) { close(fd) }
            return Running(pid: pid, input: ours[0], output: ours[1], errors: ours[2])
        } catch {
            cleanUp()
            throw error
        }
    }

    private static func pipe(for executable: String) throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard SPPipeCloseOnExec(&fds) == 0 else { throw PrintError.system(.notAvailable, path: executable, "cannot make a pipe", errno: errno) }
        return (fds[0], fds[1])
    }

    private static func spawn(_ executable: String, _ arguments: [String], descriptors: (Int32, Int32, Int32), workingDirectory: String?,
                              limits: Limits, newSession: Bool, killedWithStarter: Bool = false,
                              keepsDescriptorsBelow: Int32 = 3) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var bounds = SPLimits(cpuSeconds: UInt64(limits.cpuSeconds ?? 0), dataBytes: UInt64(limits.memoryBytes ?? 0),
                              fileBytes: UInt64(limits.fileBytes ?? 0), noCoreFiles: 1, newSession: newSession ? 1 : 0,
                              killedWithStarter: killedWithStarter ? 1 : 0, keepDescriptorsBelow: keepsDescriptorsBelow)
        var pid = pid_t()
        let directory = workingDirectory ?? usableWorkingDirectory
        let failed = SPSpawnBounded(executable, argv, environ, descriptors.0, descriptors.1, descriptors.2, directory, &bounds, &pid)
        guard failed == 0 else { throw PrintError.system(.notAvailable, path: executable, "cannot start it", errno: failed) }
        return pid
    }

    /// Reads both pipes until they close and reaps the child; kills its process group after
    /// `timeout` seconds (from the last progress `consume` reported, when there is one). A
    /// grandchild may hold the pipes open after the child has gone: the group is then killed,
    /// and the pipes read for two seconds more, not forever. The standard output goes to
    /// `consume` when there is one; its error stops the group, and is returned once it is reaped.
    private static func drain(pid: pid_t, output: Int32, errors: Int32, timeout: Double?,
                              consume: ((UnsafeRawBufferPointer) throws -> Bool)?) -> (Result, (any Error)?) {
        var start = monotonicSeconds()
        var consumeError: (any Error)?
        var data = [output: Data(), errors: Data()]
        var open = [output, errors]
        var status: Int32?
        var usage = rusage()
        var exitedAt: Double?
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty || status == nil {
            let now = monotonicSeconds()
            if status == nil {
                var raw: Int32 = 0
                // Blocking is safe only when nothing is left to read and no clock runs.
                let reaped = wait4(pid, &raw, open.isEmpty && timeout == nil ? 0 : WNOHANG, &usage)
                // ECHILD: something else reaped it (SIGCHLD ignored); its status is lost, so say it failed.
                if reaped == pid || (reaped == -1 && errno == ECHILD) {
                    status = reaped == pid ? raw : 255 << 8; exitedAt = now
                    // Ended past its time, between two looks at the clock: past it all the same
                    // (a limit that held only when a look fell in time would hold by chance).
                    if let timeout, now - start > timeout { timedOut = true }
                    // What it left running has no one to answer to.
                    if !open.isEmpty { kill(-pid, SIGKILL) }
                    continue
                }
                if let timeout, !timedOut, now - start > timeout { timedOut = true; kill(-pid, SIGKILL) }
            } else if let exitedAt, now - exitedAt > 2 {
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            // The clock is looked at again by its deadline at the latest.
            let wait = open.isEmpty ? 5 : min(100, timeout.map { status == nil ? Int32(max(0, (start + $0 - now) * 1000)) + 1 : 100 } ?? 100)
            guard poll(&fds, nfds_t(fds.count), wait) > 0 else { continue }
            for fd in fds where fd.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fd.fd, $0.baseAddress, $0.count) }
                if n > 0, fd.fd == output, let consume {
                    // After a failure, what is still coming is read and dropped until the group is gone.
                    guard consumeError == nil else { continue }
                    let began = monotonicSeconds()
                    do {
                        let progress = try buffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                        // The consumer's own time is not the child's.
                        start = progress ? monotonicSeconds() : start + (monotonicSeconds() - began)
                    } catch {
                        consumeError = error
                        if status == nil { kill(-pid, SIGKILL) }
                    }
                } else if n > 0 { data[fd.fd]!.append(contentsOf: buffer[..<n]) } else if n == 0 || errno != EINTR { open.removeAll { $0 == fd.fd } }
            }
        }
        let raw = status ?? 0
        let signalled = raw & 0x7f != 0
        let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return (Result(status: signalled ? raw & 0x7f : (raw >> 8) & 0xff, signalled: signalled, timedOut: timedOut,
                       output: data[output]!, errors: data[errors]!, processorSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime)),
                consumeError)
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

    /// Runs `body` with no signal blocked on this thread. A child that is not started here
    /// (cupsd, restarted through systemctl or an init script) starts with its parent thread's
    /// signal mask, and threads of a thread pool block most signals: such a daemon would never
    /// see SIGCHLD and never reap its filters.
    package static func withNoSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var none = sigset_t(), old = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return try body()
    }
}
