import Foundation

/// An error from swiftprint, like UIKit's UIPrintError: a code that can grow without breaking
/// callers, the file it concerns, and the underlying C status when there is one.
public struct PrintError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String
        /// The input cannot be opened or read.
        public static let inputUnreadable = Code(rawValue: "input unreadable")
        /// The input holds nothing to print.
        public static let noContent = Code(rawValue: "no content")
        /// No handler knows the input's format.
        public static let unknownFormat = Code(rawValue: "unknown format")
        /// The input is damaged or not what it claims to be.
        public static let invalidInput = Code(rawValue: "invalid input")
        /// The input is encrypted and needs a password (or the one given is wrong).
        public static let passwordRequired = Code(rawValue: "password required")
        /// The document's permissions forbid printing it.
        public static let printingNotAllowed = Code(rawValue: "printing not allowed")
        /// An option's value cannot be used.
        public static let invalidOption = Code(rawValue: "invalid option")
        /// The output (or a temporary file it needs) cannot be created or put in place.
        public static let outputFailed = Code(rawValue: "output failed")
        /// Writing the output (or a temporary file it needs) failed once it was open: a full
        /// disk, a reader that stopped, an I/O error.
        public static let outputWriteFailed = Code(rawValue: "output write failed")
        /// A drawing library failed.
        public static let renderingFailed = Code(rawValue: "rendering failed")
        /// The job was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The printer or service is not available.
        public static let notAvailable = Code(rawValue: "not available")
        /// A print job failed.
        public static let jobFailed = Code(rawValue: "job failed")
        /// The printer cannot do what the job asks (two sides, a paper size, colour).
        public static let unsupportedByPrinter = Code(rawValue: "unsupported by printer")
        /// The job crossed one of its limits (`JobLimits`); the error's `option` sets it.
        public static let limitExceeded = Code(rawValue: "limit exceeded")
        public var description: String { rawValue }
    }

    public var code: Code
    /// The file (or `-` for standard input) the error concerns, when there is one.
    public var path: String?
    /// One line for people.
    public var message: String
    /// The C library's status (errno, cairo_status_t, …) when one caused this.
    public var underlyingStatus: Int32?
    /// The option that would set this right, by its IPP/CUPS name (`document-password`), for
    /// each front end to name its own way: `--password` at the command line, `-o
    /// document-password=…` in a CUPS job. The message itself names no flag.
    public var option: String?

    public init(_ code: Code, path: String? = nil, _ message: String, status: Int32? = nil, option: String? = nil) {
        self.code = code; self.path = path; self.message = message; self.underlyingStatus = status; self.option = option
    }

    /// From an errno value, with its text.
    public static func system(_ code: Code, path: String?, _ what: String, errno value: Int32) -> PrintError {
        PrintError(code, path: path, "\(what): \(String(cString: strerror(value)))", status: value)
    }

    public var description: String {
        if let path { return "\(path == "-" ? "standard input" : path): \(message)" }
        return message
    }
}

extension PrintError.Code {
    /// The code a helper program reported by its `description`.
    package init(named name: String) { self.init(rawValue: name) }
}
