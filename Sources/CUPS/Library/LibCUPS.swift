import CCupsShim
import PrintModel

/// libcups, opened on first use (see CCupsShim for why no program links it).
package enum LibCUPS {
    private static let loaded: Result<Void, PrintError> = {
        var error: UnsafePointer<CChar>?
        if spcups_load(&error) == 0 { return .success(()) }
        return .failure(PrintError(.notAvailable, error.map { String(cString: $0) } ?? "cannot load libcups"))
    }()

    /// Throws when libcups cannot be opened; call before any `spcups_` function.
    package static func load() throws { try loaded.get() }

    /// Loads libcups for a request to the server, and points this thread's libcups at the server
    /// CUPS_SERVER names now (libcups would keep the one it read at the thread's first use of it;
    /// see `spcups_follow_server_setting`).
    package static func loadForRequests() throws {
        try load()
        spcups_follow_server_setting()
    }

    /// libcups's last error as one line, for `what` ("cannot create the job").
    package static func lastError(_ what: String, code: PrintError.Code = .jobFailed) -> PrintError {
        let text = spcups_cupsLastErrorString().map { String(cString: $0) } ?? "unknown error"
        let status = spcups_cupsLastError()
        let hint = status == IPP_STATUS_ERROR_SERVICE_UNAVAILABLE ? " (is cupsd running?)" : ""
        // A job or printer that is not there is not a job that failed.
        let code = status == IPP_STATUS_ERROR_NOT_FOUND ? .notAvailable : code
        return PrintError(code, "\(what): \(text)\(hint)", status: Int32(status.rawValue))
    }

    /// The user name CUPS sends with requests.
    package static var user: String { spcups_cupsUser().map { String(cString: $0) } ?? "" }
    /// The server libcups talks to (`CUPS_SERVER`, client.conf, or the local socket); after
    /// `loadForRequests`, the one it talks to now.
    package static var server: String { spcups_cupsServer().map { String(cString: $0) } ?? "localhost" }
}

extension String {
    /// The text libcups wrote into a buffer of `CChar`, up to its NUL.
    init(filledBuffer buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
