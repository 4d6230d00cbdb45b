import Foundation

/// Runs a helper program (a converter named in types.tsv, swiftprint-image) with argv — never a
/// shell — no input, and both output pipes drained while it runs, so that a chatty child can
/// never block on a full pipe and look like a hang; killed after `timeout` seconds.
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

    /// Runs `executable` with `arguments` in `workingDirectory` (default: `usableWorkingDirectory`);
    /// throws only when it cannot start.
    package static func run(_ executable: String, _ arguments: [String], timeout: Double? = nil,
                            workingDirectory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory ?? usableWorkingDirectory)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try withNoSignalsBlocked { try process.run() }

        let drained = DispatchGroup()
        final class Box: @unchecked Sendable { var data = Data() }
        let output = Box(), errors = Box()
        for (pipe, box) in [(out, output), (err, errors)] {
            drained.enter()
            Thread.detachNewThread {
                box.data = pipe.fileHandleForReading.readDataToEndOfFile()
                drained.leave()
            }
        }
        var timedOut = false
        if let timeout, exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        } else if timeout == nil {
            exited.wait()
        }
        // A grandchild may still hold the pipes open: do not wait for it forever.
        _ = drained.wait(timeout: .now() + 2)
        return Result(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                      timedOut: timedOut, output: output.data, errors: errors.data)
    }

    /// The folder a child starts in: ours, or `/` when we cannot enter ours. Foundation's
    /// Process changes into the parent's folder by its path before it runs the program, and
    /// fails ("You don't have permission") when that path is closed to us: a CUPS filter runs as
    /// `lp` in whatever folder cupsd was started from, often /root. Relative paths could not
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
