import Foundation

/// The page and its files, shipped in `Config/center/` (nothing is fetched from the network):
/// read once at start.
struct CenterAssets: Sendable {
    struct File: Sendable {
        var bytes: Data
        var contentType: String
    }

    /// Path served → file.
    let files: [String: File]

    static let served: [(path: String, file: String, contentType: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/center.js", "center.js", "text/javascript; charset=utf-8"),
        ("/center.css", "center.css", "text/css; charset=utf-8"),
        ("/strings.en.json", "strings.en.json", "application/json"),
    ]

    init?(configDirectory: String?) {
        guard let folder = configDirectory.map({ $0 + "/center" }) else { return nil }
        var files: [String: File] = [:]
        for (path, name, type) in Self.served {
            guard let bytes = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
            files[path] = File(bytes: bytes, contentType: type)
        }
        self.files = files
    }
}
