import Foundation

/// What the PDF says about itself. `fromEnvironment` dates it now, or at SOURCE_DATE_EPOCH when
/// that is set, so that the same input and options give the same bytes.
public struct DocumentMetadata: Hashable, Sendable {
    public var title: String?
    public var creator: String = "swiftprint"
    public var creationDate: Date?

    public init(title: String? = nil, creationDate: Date? = nil) {
        self.title = title; self.creationDate = creationDate
    }

    /// Metadata dated now (to the second), or at SOURCE_DATE_EPOCH when it is set.
    public static func fromEnvironment(title: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> DocumentMetadata {
        let epoch = environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
        return DocumentMetadata(title: title, creationDate: Date(timeIntervalSince1970: (epoch ?? Date().timeIntervalSince1970).rounded(.down)))
    }

    /// The date written into the file: the creation date, or, for metadata made without one,
    /// a fixed one (the epoch).
    package var stampedDate: Date { creationDate ?? Date(timeIntervalSince1970: 0) }

    /// `date` in UTC: year, month, day, hour, minute, second. Formatted by hand: Foundation's
    /// date formatters load ICU data, a millisecond of start-up for two strings.
    package static func utcFields(_ date: Date) -> [Int] {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var t = tm()
        gmtime_r(&seconds, &t)
        return [Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday), Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec)]
    }

    /// ISO 8601 (`2026-11-22T10:00:00Z`), as cairo's metadata takes it.
    package static func iso8601(_ date: Date) -> String {
        let f = utcFields(date), d = f.map(twoDigits)
        return "\(fourDigits(f[0]))-\(d[1])-\(d[2])T\(d[3]):\(d[4]):\(d[5])Z"
    }

    /// A PDF date (`D:20261122100000Z`), as the document information dictionary takes it.
    package static func pdfDate(_ date: Date) -> String {
        let f = utcFields(date)
        return "D:" + fourDigits(f[0]) + f.dropFirst().map(twoDigits).joined() + "Z"
    }

    private static func twoDigits(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    private static func fourDigits(_ v: Int) -> String { String(repeating: "0", count: max(0, 4 - String(v).count)) + String(v) }
}
