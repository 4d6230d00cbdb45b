import CUPSClient
import CUPSCommon
import Foundation

/// The PDFs the Printer Simulator's queues (`swiftprint:` device URIs) saved for this user:
/// `SPOOL/USER/*.pdf`, as the backend writes them, in folders only the user can open. Each is
/// known to the page by an id made from its queue and name; a request names an id, and only a
/// file listed again now answers it, so no request reaches a file by a name of its own.
enum CenterSavedPDFs {
    struct Saved: Encodable, Sendable {
        var id: String
        var queue: String
        var name: String
        var bytes: Int
        var saved: Date
        /// Not sent: where it is.
        var path: String

        enum CodingKeys: String, CodingKey { case id, queue, name, bytes, saved }
    }

    /// This process's account: whose folder is read (the backend names it by the account).
    static var account: String? {
        guard let entry = getpwuid(geteuid()) else { return nil }
        return String(cString: entry.pointee.pw_name)
    }

    /// Every saved PDF of this user's on this CUPS's save-as-PDF queues, newest first.
    static func list() async throws -> [Saved] {
        guard let account else { return [] }
        var found: [Saved] = []
        for printer in try await PrinterDirectory.printers(capabilities: false) where printer.swiftprintQueue == .saveAsPDF {
            guard let folder = printer.deviceURI.flatMap(SpoolDeviceURI.init)?.folder else { continue }
            let mine = folder + "/" + account
            for name in (try? FileManager.default.contentsOfDirectory(atPath: mine)) ?? [] where name.hasSuffix(".pdf") {
                let path = mine + "/" + name
                // Regular files only: a link in the folder leads nowhere from here.
                var info = stat()
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                // The id spells queue and name (hex): the same file keeps its id across lists.
                let id = Array((printer.name + "\u{0}" + name).utf8).map { String(format: "%02x", $0) }.joined()
                found.append(Saved(id: id, queue: printer.name, name: name,
                                   bytes: Int(info.st_size), saved: Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)), path: path))
            }
        }
        return found.sorted { ($0.saved, $0.name) > ($1.saved, $1.name) }
    }

    static func find(_ id: String) async throws -> Saved? {
        try await list().first { $0.id == id }
    }
}
