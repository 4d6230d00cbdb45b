import Foundation
import PrintModel
import PrintSupport

// A helper program's limits under a job's (`JobLimits`), and the errors of one that stopped:
// shared by the handlers' helper runner (HandlerSupport) and the raster helper's (RasterOutput).

extension ChildProcess.Limits {
    /// A helper's bounds under the job's limits: its clock (`helper-timeout`), as much
    /// processor time, and its memory (`helper-memory`).
    package init(helper limits: JobLimits) {
        let h = limits.helper
        self.init(seconds: h.seconds, cpuSeconds: h.cpuSeconds, memoryBytes: h.memoryBytes)
    }

    /// A helper that works a sheet at a time (swiftprint-raster) on `sheets` sheets: its clock
    /// `helper-timeout` for each sheet (its runner starts it again at each), as much processor
    /// time for each, and its memory (`helper-memory`).
    package init(helper limits: JobLimits, sheets: Int) {
        let h = limits.helper
        self.init(seconds: h.seconds, cpuSeconds: h.cpuSeconds * max(1, sheets), memoryBytes: h.memoryBytes)
    }

    /// A converter's (types.tsv): its own clock (`converter-timeout`), a helper's memory.
    package init(converter limits: JobLimits) {
        self.init(seconds: limits.converterSeconds, cpuSeconds: Int(limits.converterSeconds.rounded(.up)),
                  memoryBytes: limits.helper.memoryBytes)
    }
}

extension ChildProcess.Result {
    /// The error for a program stopped at one of its limits, naming the limit and the option
    /// that sets it; nil when it crossed none. `clock` is the option of its time limit.
    package func limitError(_ program: String, path: String?, clock: any DeclaredOption) -> PrintError? {
        switch crossedLimit {
        case .seconds(let s)?:
            return JobLimits.crossed(clock, path: path, "\(program) took longer than \(String(format: "%g", s)) s and was stopped")
        case .cpuSeconds(let s)?:
            return JobLimits.crossed(clock, path: path, "\(program) used more than \(s) s of processor time and was stopped")
        case .memoryBytes(let bytes)?:
            return JobLimits.crossed(LimitOptions.helperMemory, path: path, "\(program) needed more than the \(bytes >> 20) MB of memory it may use")
        case nil:
            return nil
        }
    }
}

extension ChildProcess.Result {
    /// The error for a helper `program` that ended without its reply, after `limitError` found
    /// no limit crossed: stopped from outside (an administrator, a shutdown, the out-of-memory
    /// killer; the job may work when tried again), crashed, or ended; `wrote` says what it
    /// wrote instead of a reply, if anything. Its last words on standard error are quoted.
    package func endedWithoutReply(_ program: String, path: String?, wrote: String?) -> PrintError {
        let said = lastErrorLine.isEmpty ? "" : ": " + lastErrorLine
        if signalled, let signal = Self.stoppingSignals[status] {
            return PrintError(.jobFailed, path: path, "\(program) was stopped by \(signal) from outside the job\(said)")
        }
        let how = signalled ? "crashed (signal \(status))"
            : wrote.map { "answered something that is not a reply (\($0); status \(status))" } ?? "ended without a reply (status \(status))"
        return PrintError(.renderingFailed, path: path, "\(program) \(how)\(said)")
    }

    /// Signals that stop a process from outside, by name.
    static let stoppingSignals: [Int32: String] = [SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"]
}
