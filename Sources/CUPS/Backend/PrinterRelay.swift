import CUPSCommon
import CUPSLibrary
import PrintSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The backend of a swiftprint printer queue (device URI `swiftprint-ipp://…`, RelayDeviceURI):
/// CUPS's own `ipp` backend sends the job, and this program, between cupsd and it, watches for
/// the one thing that backend takes for success and is not: a printer that was switched off or
/// restarted in the middle of the job.
///
/// CUPS 2.4's ipp backend (read in its source, and seen with an ippeveprinter killed mid-job):
/// when the printer stops answering while the document is on its way, it gives up sending,
/// waits for the printer to answer again, asks after the job, is told the printer knows no such
/// job (it has just started), and exits 0: cupsd marks the job completed, and the filter, whose
/// output nobody reads any more, fails the job with a broken pipe. Printed: nothing, or half.
///
/// Or, the moment being a little different, its Send-Document breaks ("Broken pipe") and it
/// exits 4, which stops the queue until an administrator starts it again.
///
/// So the ipp backend's exit 0 is taken for what it says, and its 4 for a broken printer, only
/// when it holds; it does not when:
/// - the document was not all read (its standard input still has data), or, for an exit 0, the
///   printer, which had answered for the job, no longer knew it (`cups-ipp-missing-job-history`);
/// - and the printer has been up for less time than the job has run (`printer-up-time`), or
///   does not answer at all:
///
/// then the job is handed back to cupsd for a retry (CUPS_BACKEND_RETRY), with the reason on
/// `lpstat -l`; swiftprint's printer queues retry jobs (`printer-error-policy=retry-job`), so it
/// is sent again, from its start, after cupsd's JobRetryInterval. A printer cancelling the job at
/// its panel is not restarted: that job ends as the ipp backend says. Everything the ipp backend
/// writes reaches cupsd as it is; its exit status too, in every other case.
public enum PrinterRelay {
    /// How long the printer's up-time may fall short of the job's before it counts as a restart:
    /// the two clocks are read a request apart, and up-time is in whole seconds.
    static let clockSlack = 2

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        // Discovery (lpinfo -v): the relay finds no printers of its own.
        if arguments.count == 1 { return BackendStatus.ok.rawValue }
        guard arguments.count == 6 || arguments.count == 7 else {
            CUPSMessages.send("ERROR", "usage: swiftprint-ipp job-id user title copies options [file]")
            return BackendStatus.failed.rawValue
        }
        let deviceURI = environment["DEVICE_URI"] ?? arguments[0]
        guard let device = RelayDeviceURI(deviceURI) else {
            CUPSMessages.send("ERROR", "swiftprint: the device URI must be swiftprint-ipp:// or swiftprint-ipps:// and the printer's address; not \(deviceURI)")
            return BackendStatus.stop.rawValue
        }
        let backend = (environment["CUPS_SERVERBIN"] ?? "/usr/lib/cups") + "/backend/" + device.backend
        let started = time(nil)

        // The ipp backend reads the printer's address from DEVICE_URI, as it would from cupsd,
        // and has cupsd's back channel (3) and side channel (4) as this backend has them.
        setenv("DEVICE_URI", device.printerURI, 1)
        let child: ChildProcess.Running
        do {
            child = try ChildProcess.start(backend, Array(arguments.dropFirst()), inputDescriptor: STDIN_FILENO,
                                           output: .descriptor(STDOUT_FILENO), errors: .pipe, killedWithStarter: true,
                                           keepsDescriptorsBelow: 5)
        } catch {
            CUPSMessages.send("ERROR", "swiftprint: cannot start CUPS's \(device.backend) backend (\(backend)): \(error)")
            return BackendStatus.stop.rawValue
        }
        relayedGroup.store(child.pid, ordering: .sequentiallyConsistent)
        // cupsd cancels a job with SIGTERM to its backend only; the ipp backend then cancels
        // it at the printer, as it does under cupsd.
        signal(SIGTERM) { _ in
            cancelled.store(true, ordering: .sequentiallyConsistent)
            let group = relayedGroup.load(ordering: .sequentiallyConsistent)
            if group > 0 { kill(-group, SIGTERM) }
        }
        let heard = relayMessages(from: child.errors)
        let status = exitStatus(of: child.pid)
        child.closePipes()
        if cancelled.load(ordering: .sequentiallyConsistent) { return status }

        // Whatever the ipp backend left unread is read to its end, so that the filter ends
        // as it would have: its broken pipe is not the job's reason.
        let documentWasCut = arguments.count == 6 && drainStandardInput()
        // Exit 0 over a lost job, or 4 (stop the queue) for a document whose sending broke
        // ("Send-Document: server-error-internal-error (Broken pipe)"): the two ways the ipp
        // backend ends when the printer goes away mid-job. Any other status already retries,
        // or is the printer's own refusal.
        let lost = status == BackendStatus.ok.rawValue && (documentWasCut || (heard.jobKnown && heard.jobForgotten))
            || status == BackendStatus.stop.rawValue && documentWasCut
        guard lost else { return status }
        let running = Int(time(nil) - started)
        let upTime = try? PrinterAttributes.upTime(PrinterAddress(uri: device.printerURI), timeout: 5)
        let host = (try? PrinterAddress(uri: device.printerURI).host) ?? device.printerURI
        let what = documentWasCut ? "before the whole document reached it" : "and no longer knows the job"
        switch upTime {
        case .some(let up) where up + clockSlack < running:
            CUPSMessages.send("ERROR", "swiftprint: the printer \(host) restarted \(up) s ago, \(what); the job will be sent again")
            return BackendStatus.retry.rawValue
        case nil where documentWasCut:
            CUPSMessages.send("ERROR", "swiftprint: the printer \(host) stopped answering \(what); the job will be sent again")
            return BackendStatus.retry.rawValue
        default:
            // Up all along: the printer itself ended the job (cancelled at its panel), keeps
            // no job history, or refused how it was sent. The ipp backend's word stands.
            return status
        }
    }

    /// What the ipp backend's messages said of the job on the printer.
    struct Heard {
        /// The printer answered Get-Job-Attributes for it.
        var jobKnown = false
        /// Later, the printer had no such job.
        var jobForgotten = false

        mutating func read(_ line: Substring) {
            if line.hasPrefix("DEBUG: Get-Job-Attributes: successful-ok") { jobKnown = true }
            if jobKnown, line.hasPrefix("STATE:"), line.contains("cups-ipp-missing-job-history") { jobForgotten = true }
        }
    }

    /// Copies the ipp backend's standard error to ours as it comes (cupsd reads it as the
    /// backend's own), reading each line on the way; returns when it closes.
    static func relayMessages(from fd: Int32) -> Heard {
        var heard = Heard(), pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            writeAll(STDERR_FILENO, buffer[0..<n])
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                heard.read(Substring(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if pending.count > 65536 { pending.removeAll() }
        }
        return heard
    }

    /// The child's exit status as a backend status: its exit code, or FAILED for a signal.
    static func exitStatus(of pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : BackendStatus.failed.rawValue
    }

    /// Reads standard input to its end; whether there was anything left to read.
    static func drainStandardInput() -> Bool {
        var left = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return left }
            left = true
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}

/// The ipp backend's process group, for the SIGTERM handler (which can capture nothing; a
/// lock-free atomic is safe to read in a signal handler).
private let relayedGroup = Atomic<Int32>(0)
/// Set by SIGTERM: cupsd cancelled the job.
private let cancelled = Atomic<Bool>(false)
