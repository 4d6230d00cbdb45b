import CUPSLibrary
import Foundation
import PrintModel
import PrintSupport

/// A job as the Print Center shows it.
public struct JobStatus: Hashable, Codable, Sendable {
    /// IPP `job-state`.
    public enum State: String, Hashable, Codable, Sendable {
        case pending, held, processing, stopped, cancelled, aborted, completed, unknown

        init(ipp value: Int?) {
            self = switch value {
            case 3: .pending
            case 4: .held
            case 5: .processing
            case 6: .stopped
            case 7: .cancelled
            case 8: .aborted
            case 9: .completed
            default: .unknown
            }
        }

        /// The job will not change any more.
        public var isFinal: Bool { self == .cancelled || self == .aborted || self == .completed }
    }

    public var id: Int
    public var printer: String
    public var title: String
    public var user: String
    public var state: State
    /// IPP `job-state-reasons` other than `none` (`job-hold-until-specified`, `job-printing`, …).
    public var stateReasons: [String]
    /// What the printer last said about the job (`job-printer-state-message`), if anything.
    public var message: String?
    /// Pages (impressions) printed so far, as the printer or CUPS's filters count them.
    public var impressionsCompleted: Int
    /// Size in kilobytes, as CUPS received it.
    public var kilobytes: Int?
    public var created: Date?
}

/// The Print Center: jobs on the CUPS server, their progress, and cancelling them (IPP Get-Jobs,
/// Get-Job-Attributes, Cancel-Job through libcups).
///
/// `PrintCenter.shared` answers with `async` methods, each request on a thread of its own; the
/// static methods are the same requests, blocking the caller.
public struct PrintCenter: Sendable {
    public static let shared = PrintCenter()

    /// Jobs on `printer`, as `PrintCenter.jobs(on:includeFinished:allUsers:)` lists them.
    public func jobs(on printer: String? = nil, includeFinished: Bool = false, allUsers: Bool = false) async throws -> [JobStatus] {
        try await BlockingCall.run { try Self.jobs(on: printer, includeFinished: includeFinished, allUsers: allUsers) }
    }

    /// One job's state now.
    public func status(ofJob id: Int) async throws -> JobStatus {
        try await BlockingCall.run { try Self.status(ofJob: id) }
    }

    /// Job `id`'s status as it changes, up to its final one.
    public func statusUpdates(ofJob id: Int, pollingEvery interval: Duration = .milliseconds(250)) -> JobStatusUpdates {
        JobStatusUpdates(jobID: id, pollingEvery: interval)
    }

    /// Cancels job `id`; a job already finished cannot be, and says so.
    public func cancel(job id: Int) async throws {
        try await BlockingCall.run { try Self.cancel(job: id) }
    }

    /// The user name CUPS's requests carry (`cupsUser`: `CUPS_USER`, client.conf's `User`, else
    /// this process's account); empty when libcups cannot be opened.
    public static var user: String {
        guard (try? LibCUPS.loadForRequests()) != nil else { return "" }
        return LibCUPS.user
    }

    /// Whether `user` administers CUPS by its own rule: root, or a member of a group cupsd's
    /// `SystemGroup` names (`/etc/cups/cups-files.conf`; Debian's default, `lpadmin`, when the
    /// file cannot be read). Such a user may see and act on every user's jobs, as cupsd lets
    /// them; anyone else, on their own.
    public static func isAdministrator(_ user: String = user, configuration: String = "/etc/cups/cups-files.conf") -> Bool {
        if user == "root" { return true }
        let text = (try? String(contentsOfFile: configuration, encoding: .utf8)) ?? ""
        let named = text.split(separator: "\n").compactMap { line -> [String]? in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            return words.first == "SystemGroup" ? Array(words.dropFirst()) : nil
        }.flatMap { $0 }
        let groups = named.isEmpty ? ["lpadmin"] : named
        guard let account = getpwnam(user) else { return false }
        let primary = account.pointee.pw_gid
        return groups.contains { name in
            guard let group = getgrnam(name) else { return false }
            if group.pointee.gr_gid == primary { return true }
            var member = group.pointee.gr_mem
            while let m = member?.pointee {
                if String(cString: m) == user { return true }
                member = member?.advanced(by: 1)
            }
            return false
        }
    }

    /// Holds job `id` until it is released (`lp -i ID -H hold`); only a job not yet printing can be.
    public func hold(job id: Int) async throws {
        try await BlockingCall.run { try CUPSJobQuery.hold(job: id) }
    }

    /// Releases held job `id` (`lp -i ID -H resume`).
    public func release(job id: Int) async throws {
        try await BlockingCall.run { try CUPSJobQuery.release(job: id) }
    }

    /// Waits until job `id` is final and returns its final status; cancelling the waiting task
    /// stops the wait (`CancellationError`), not the job.
    public func finalStatus(ofJob id: Int, pollingEvery interval: Duration = .milliseconds(250)) async throws -> JobStatus {
        var last: JobStatus?
        for try await status in statusUpdates(ofJob: id, pollingEvery: interval) { last = status }
        guard let last else { throw CancellationError() }
        return last
    }

    private static let attributes = ["job-id", "job-state", "job-state-reasons", "job-printer-state-message", "job-name",
                                     "job-originating-user-name", "job-printer-uri", "job-impressions-completed",
                                     "job-k-octets", "time-at-creation"]

    /// Jobs on `printer` (every printer for nil): not yet finished ones, or all that CUPS keeps
    /// with `includeFinished`; the user's own, or everyone's with `allUsers`. Oldest first.
    public static func jobs(on printer: String? = nil, includeFinished: Bool = false, allUsers: Bool = false) throws -> [JobStatus] {
        try CUPSJobQuery.jobs(printerURI: printerURI(printer), includeFinished: includeFinished, allUsers: allUsers, attributes: attributes)
            .map(status).sorted { $0.id < $1.id }
    }

    /// One job's state now.
    public static func status(ofJob id: Int) throws -> JobStatus {
        var s = status(try CUPSJobQuery.job(id, attributes: attributes, doing: "cannot read job \(id)"))
        s.id = id
        return s
    }

    /// Cancels job `id`; a job already finished cannot be, and says so.
    public static func cancel(job id: Int) throws {
        try CUPSJobQuery.cancel(job: id)
    }

    /// Cancels every unfinished job of the user's on `printer` (every printer for nil); returns their ids.
    public static func cancelAll(on printer: String? = nil) throws -> [Int] {
        let ids = try jobs(on: printer).map(\.id)
        for id in ids { try cancel(job: id) }
        return ids
    }

    /// Waits until job `id` is completed, cancelled or aborted, calling `update` whenever what
    /// it reports changes (state, pages done, message); returns the final status.
    public static func wait(forJob id: Int, pollingEvery interval: Duration = .milliseconds(250),
                            update: (JobStatus) -> Void = { _ in }) throws -> JobStatus {
        var last: JobStatus?
        while true {
            let now = try status(ofJob: id)
            if now != last { update(now) }
            if now.state.isFinal { return now }
            last = now
            Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
        }
    }

    private static func printerURI(_ printer: String?) -> String {
        guard let printer else { return "ipp://localhost/" }
        let queue = printer.split(separator: "/").first.map(String.init) ?? printer
        return "ipp://localhost/printers/" + (queue.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? queue)
    }

    private static func status(_ job: [String: IPPValues]) -> JobStatus {
        let uri = job["job-printer-uri"]?.string ?? ""
        return JobStatus(
            id: job["job-id"]?.integer ?? 0,
            printer: uri.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) } ?? "",
            title: job["job-name"]?.string ?? "",
            user: job["job-originating-user-name"]?.string ?? "",
            state: JobStatus.State(ipp: job["job-state"]?.integer),
            stateReasons: (job["job-state-reasons"]?.strings ?? []).filter { $0 != "none" },
            message: job["job-printer-state-message"]?.string.flatMap { $0.isEmpty ? nil : $0 },
            impressionsCompleted: job["job-impressions-completed"]?.integer ?? 0,
            kilobytes: job["job-k-octets"]?.integer,
            created: job["time-at-creation"]?.integer.map { Date(timeIntervalSince1970: Double($0)) })
    }
}
