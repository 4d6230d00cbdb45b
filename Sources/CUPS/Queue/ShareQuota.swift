/// How much one sender (`requesting-user-name`) may send a shared queue in a period: CUPS's own
/// per-queue quotas (`job-k-limit`, `job-page-limit`, `job-quota-period`), which cupsd checks
/// before it accepts a job and answers with "Quota limit reached." when one is crossed. A job
/// of any size is still held to swiftprint's own limits (`--max-input-size`, `--max-pages`),
/// which a job can lower but not raise.
public struct ShareQuota: Sendable, Equatable {
    /// Megabytes per sender per period; 0: none.
    public var megabytes: Int
    /// Pages per sender per period; 0: none.
    public var pages: Int
    /// The period, in seconds.
    public var seconds: Int

    public init(megabytes: Int, pages: Int, seconds: Int) { self.megabytes = megabytes; self.pages = pages; self.seconds = seconds }

    /// 200 MB and 500 pages a sender an hour: a phone's day of printing, not a disk's worth.
    public static let defaults = ShareQuota(megabytes: 200, pages: 500, seconds: 3600)

    /// The queue options that set it.
    var lpadminOptions: [String] {
        ["-o", "job-quota-period=\(seconds)", "-o", "job-k-limit=\(megabytes * 1024)", "-o", "job-page-limit=\(pages)"]
    }
}
