import Foundation
import TestSupport

/// A real cupsd of the tests' own: its ServerRoot, ServerBin (cupsd's cups-exec plus what
/// `swiftprint install` links in), DataDir (the system's *.types, so files are typed as on
/// the machine), spool and logs in one temporary folder, listening on 127.0.0.1 on a free port,
/// in the foreground; the swiftprint queue is made by the real `swiftprint install`. One per
/// test run, stopped when the run ends.
final class PrivateCUPS: @unchecked Sendable {
    let root: String
    let port: Int
    var server: String { "127.0.0.1:\(port)" }
    /// cupsd's process.
    var pid: pid_t { process.processIdentifier }
    /// Where the queue's backend saves jobs (its `swiftprint:` URI).
    var saved: String { root + "/saved" }
    var installArguments: [String] {
        ["--prefix", root + "/prefix", "--cups-serverbin", root + "/lib", "--cups-datadir", root + "/data",
         "--cups-serverroot", root + "/etc", "--cups-server", server, "--spool", saved]
    }
    private var process: Process

    /// cupsd runs filters as `lp` and the backend as root only when it runs as root itself.
    static var canRun: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/cupsd") }

    nonisolated(unsafe) private static var running: PrivateCUPS?
    private static let lock = NSLock()

    /// The run's cupsd with the swiftprint queue installed; started on first use.
    static func shared() throws -> PrivateCUPS {
        lock.lock(); defer { lock.unlock() }
        if let running { return running }
        let cups = try PrivateCUPS()
        running = cups
        atexit { PrivateCUPS.running?.stop() }
        return cups
    }

    /// A cupsd of its own, for tests that change the installation; `stop()` it.
    /// `environment`: more variables for every filter and backend (cupsd.conf's `SetEnv`).
    /// `writingStateAtOnce`: cupsd writes jobs' state to disk at once (`DirtyCleanInterval 0`)
    /// rather than every 30 s, for tests that kill it and expect it to know its jobs again.
    static func fresh(environment: [String: String] = [:], writingStateAtOnce: Bool = false) throws -> PrivateCUPS {
        try PrivateCUPS(environment: environment, writingStateAtOnce: writingStateAtOnce)
    }

    /// A cupsd of its own with stock CUPS's conversions, pdftopdf and the ipp backend, for
    /// queues on real IPP printers (`ippeveprinter`); `stop()` it.
    static func withStockFilters() throws -> PrivateCUPS { try PrivateCUPS(stockFilters: true) }

    /// A cupsd of its own that has every conversion and filter this machine's CUPS has (CUPS's,
    /// cups-filters', Ghostscript's) and the ipp backend, as a machine with all of them
    /// installed: for swiftprint's printer queues, whose jobs must still use none of them; `stop()` it.
    static func withSystemFilters() throws -> PrivateCUPS { try PrivateCUPS(stockFilters: true, allSystemFilters: true) }

    private init(stockFilters: Bool = false, allSystemFilters: Bool = false, environment: [String: String] = [:],
                 writingStateAtOnce: Bool = false) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftprint-cupsd-\(UUID().uuidString.prefix(8))").path
        port = try Self.freePort()
        try Self.writeServer(at: root, port: port, stockFilters: stockFilters, allSystemFilters: allSystemFilters, environment: environment,
                             writingStateAtOnce: writingStateAtOnce)
        // Started from a folder its filters (running as lp) cannot enter, as a system cupsd
        // started from root's home is: they must not depend on the folder they start in.
        try FileManager.default.createDirectory(atPath: root + "/closed", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        process = try Self.start(root: root)
        try waitUntilUp()
        let install = try Tool.run(Tool.swiftprint, ["install"] + installArguments)
        guard install.status == 0 else { stop(); throw Failure("swiftprint install failed: \(install.stderr)\(install.text)") }
        // cupsd reads new *.types only when it (re)loads: a hang-up makes it reload everything.
        kill(process.processIdentifier, SIGHUP)
        usleep(300_000)
        try waitUntilUp()
    }

    /// A cupsd's folders and configuration at `root`, listening on 127.0.0.1:`port`, not started.
    static func writeServer(at root: String, port: Int, stockFilters: Bool, allSystemFilters: Bool, environment: [String: String] = [:],
                            writingStateAtOnce: Bool = false) throws {
        let fm = FileManager.default
        for dir in ["etc/ppd", "etc/ssl", "lib/daemon", "spool/tmp", "cache", "state", "log", "data/mime", "data/banners"] {
            try fm.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
        }
        // cupsd's filters run as lp: it must reach the installed programs and the files.
        chmod(root, 0o755)
        try fm.copyItem(atPath: "/usr/lib/cups/daemon/cups-exec", toPath: root + "/lib/daemon/cups-exec")
        // Stock CUPS's types only: not a swiftprint.types the machine's own install added.
        for name in try fm.contentsOfDirectory(atPath: "/usr/share/cups/mime") where name.hasSuffix(".types") && name != "swiftprint.types" {
            try fm.copyItem(atPath: "/usr/share/cups/mime/" + name, toPath: root + "/data/mime/" + name)
        }
        if stockFilters {
            // An IPP Everywhere queue takes application/vnd.cups-pdf: stock cupsfilters.convs
            // says pdftopdf makes it from a PDF; the ipp backend sends it on.
            for name in try fm.contentsOfDirectory(atPath: "/usr/share/cups/mime") where name.hasSuffix(".convs") && !name.hasPrefix("swiftprint") {
                try fm.copyItem(atPath: "/usr/share/cups/mime/" + name, toPath: root + "/data/mime/" + name)
            }
            let filters = allSystemFilters ? try fm.contentsOfDirectory(atPath: "/usr/lib/cups/filter").filter { $0 != "swiftprint" } : ["pdftopdf"]
            for (dir, name) in [("backend", "ipp")] + filters.map({ ("filter", $0) }) {
                try fm.createDirectory(atPath: "\(root)/lib/\(dir)", withIntermediateDirectories: true)
                try fm.createSymbolicLink(atPath: "\(root)/lib/\(dir)/\(name)", withDestinationPath: "/usr/lib/cups/\(dir)/\(name)")
            }
        }
        try """
        ServerRoot \(root)/etc
        ServerBin \(root)/lib
        DataDir \(root)/data
        RequestRoot \(root)/spool
        TempDir \(root)/spool/tmp
        CacheDir \(root)/cache
        StateDir \(root)/state
        DocumentRoot /usr/share/cups/doc-root
        AccessLog \(root)/log/access_log
        ErrorLog \(root)/log/error_log
        PageLog \(root)/log/page_log
        User lp
        Group lp
        SystemGroup root
        FileDevice No
        \(Sanitizer.childEnvironment.merging(environment) { $1 }.sorted(by: { $0.key < $1.key }).map { "SetEnv \($0.key) \($0.value)\n" }.joined())
        """.write(toFile: root + "/etc/cups-files.conf", atomically: false, encoding: .utf8)
        try """
        LogLevel debug
        MaxLogSize 0
        Listen 127.0.0.1:\(port)
        Browsing No
        BrowseLocalProtocols none
        DefaultShared No
        WebInterface No
        DefaultAuthType None
        MaxJobs 0
        PreserveJobHistory Yes
        JobRetryInterval 1
        JobRetryLimit 20
        \(writingStateAtOnce ? "DirtyCleanInterval 0" : "")
        <Location />
          Order allow,deny
          Allow from 127.0.0.1
        </Location>
        <Policy default>
          JobPrivateAccess all
          JobPrivateValues none
          SubscriptionPrivateAccess all
          SubscriptionPrivateValues none
          <Limit All>
            Order deny,allow
          </Limit>
        </Policy>

        """.write(toFile: root + "/etc/cupsd.conf", atomically: false, encoding: .utf8)
    }

    /// cupsd, started in the foreground on the configuration at `root`.
    private static func start(root: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/cupsd")
        process.arguments = ["-f", "-c", root + "/etc/cupsd.conf", "-s", root + "/etc/cups-files.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.currentDirectoryURL = URL(fileURLWithPath: root + "/closed")
        // Not from this test thread's signal mask, which blocks SIGCHLD: cupsd would never
        // reap its filters and every job would hang.
        try withNoSignalsBlocked { try process.run() }
        return process
    }

    /// Stops cupsd as a package update or `systemctl restart cups` does (SIGTERM: it stops its
    /// jobs' filters and backends and keeps the jobs), or as a crash or the out-of-memory killer
    /// does (SIGKILL: it stops nothing), and starts it again on the same folders.
    func restart(crashing: Bool = false) throws {
        if crashing { kill(process.processIdentifier, SIGKILL) } else { process.terminate() }
        process.waitUntilExit()
        process = try Self.start(root: root)
        try waitUntilUp()
    }

    /// The processes cupsd runs for its jobs now (its filters, backends and their helpers), by
    /// program name: `swiftprint-filter`, `swiftprint-backend`, `ipp` ….
    func jobProcesses(named name: String) -> [pid_t] {
        ProcessTree.descendants(of: process.processIdentifier).filter { $0.name == name }.map(\.pid)
    }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: root)
    }

    private func waitUntilUp() throws {
        for _ in 0..<Int(100 * Sanitizer.patience) {
            if let r = try? Tool.run("lpstat", ["-h", server, "-r"]), r.text.contains("is running") { return }
            usleep(100_000)
        }
        throw Failure("the private cupsd did not start; see \(root)/log/error_log")
    }

    /// Submits `files` with `lp`; returns the job id.
    func submit(_ files: [String], to queue: String = "swiftprint", options: [String: String] = [:], title: String? = nil,
                user: String? = nil) throws -> Int {
        var args = ["-h", server, "-d", queue]
        if let title { args += ["-t", title] }
        if let user { args += ["-U", user] }
        for (k, v) in options.sorted(by: { $0.key < $1.key }) { args += ["-o", "\(k)=\(v)"] }
        let r = try Tool.run("lp", args + files)
        guard r.status == 0, let id = r.text.split(separator: " ").compactMap({ $0.split(separator: "-").last.flatMap { Int($0) } }).first else {
            throw Failure("lp failed: \(r.stderr)")
        }
        return id
    }

    /// Waits until no job is pending or printing.
    func waitForJobs(on queue: String = "swiftprint", timeout: Double = 120) throws {
        let timeout = timeout * Sanitizer.patience
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let r = try Tool.run("lpstat", ["-h", server, "-o", queue])
            if r.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
            usleep(200_000)
        }
        throw Failure("jobs still pending after \(timeout) s")
    }

    /// Waits until each of `queues` is idle: after a job completes, cupsd keeps a printer
    /// "processing" a moment longer (cups-waiting-for-job-completed) while its backend ends.
    func waitUntilIdle(_ queues: [String], timeout: Double = 30) throws {
        let timeout = timeout * Sanitizer.patience
        let end = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < end {
            last = try Tool.run("lpstat", ["-h", server, "-p", queues.joined(separator: ",")]).text
            let idle = last.split(separator: "\n").filter { $0.hasPrefix("printer ") && $0.contains(" is idle.") }
            if idle.count == queues.count { return }
            usleep(100_000)
        }
        throw Failure("printers not idle after \(timeout) s: \(last)")
    }

    /// `lpstat -l` for one finished job: its lines, including `Status: <reason>`. Right after a
    /// job ends, cupsd may still show an interim status before the filter's last message; with
    /// `awaiting`, the report is asked again until it holds that text (at most 15 s).
    func finishedJobReport(_ id: Int, queue: String = "swiftprint", awaiting text: String? = nil) throws -> String {
        let end = Date().addingTimeInterval(15 * Sanitizer.patience)
        while true {
            let r = try Tool.run("lpstat", ["-h", server, "-l", "-W", "completed", "-o", queue])
            var lines: [Substring] = [], inJob = false
            for line in r.text.split(separator: "\n") {
                if !line.hasPrefix("\t") && !line.hasPrefix(" ") { inJob = line.hasPrefix("\(queue)-\(id) ") }
                if inJob { lines.append(line) }
            }
            let report = lines.joined(separator: "\n")
            guard let text, !report.contains(text), Date() < end else { return report }
            usleep(200_000)
        }
    }

    /// Files saved for `user`, by name.
    func savedFiles(user: String = "root") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: saved + "/" + user)) ?? []).sorted()
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw Failure("no free port") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// Runs `body` (which starts a process) with no signal blocked on this thread, so that the
/// child starts with none blocked: test threads block SIGTERM and SIGCHLD, and a child keeps
/// its parent's mask (cupsd would never reap its filters; SIGTERM would not stop a daemon).
/// The mask is restored as soon as `body` returns: Foundation learns of exited children through
/// a signalfd, which sees SIGCHLD only while every thread blocks it.
func withNoSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
    var none = sigset_t(), old = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &old)
    defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
    return try body()
}
