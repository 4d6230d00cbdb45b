/// The job attributes cupsd passes to every filter (argv[5]) that are not the filter's to act
/// on: the job's own description, and what cupsd, the PPD's code or the `ipp` backend apply
/// (finishings, trays, bins, quality). Only what is left over, and not swiftprint's own
/// option, is reported as ignored.
enum CUPSJobAttributes {
    /// Attributes by exact name.
    static let names: Set<String> = [
        "finishings", "finishings-col", "output-bin", "print-quality", "print-content-optimize", "print-rendering-intent",
        "media-col", "media-source", "media-type", "multiple-document-handling", "ipp-attribute-fidelity", "page-set",
        "output-order", "print-as-raster",
        "number-of-documents", "document-name-supplied", "document-format", "document-format-detected", "document-format-supplied",
        "job-sheets", "job-priority", "job-hold-until", "job-name", "job-uuid", "job-originating-host-name",
        "job-originating-user-name", "job-account-id", "job-accounting-user-id", "job-password", "job-password-encryption",
        "requesting-user-name", "client-info", "collate", "Collate", "noCollate", "ColorModel", "cupsPrintQuality",
    ]

    /// Attribute name prefixes: families cupsd adds (`time-at-creation`, `job-impressions`,
    /// `com.apple.print.…` from macOS senders, `notify-…`).
    static let prefixes = ["job-", "time-at-", "date-time-at-", "document-", "notify-", "com.apple.", "printer-", "cups", "APPrinter"]

    /// Options CUPS users give as a bare word (`lp -o fitplot`), for other filters: words, not
    /// pieces of a text option split at its spaces.
    static let bareWords: Set<String> = ["fitplot", "prettyprint", "raw", "blackplot", "nocollate", "manualfeed"]

    static func actedOnElsewhere(_ name: String) -> Bool {
        names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }
}
