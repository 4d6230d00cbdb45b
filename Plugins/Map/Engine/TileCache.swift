import Foundation
import HandlerSupport

/// Downloaded tiles on disk, so that a map printed twice asks the server once: each tile is a
/// file of bytes beside a small JSON record of where it came from and how long it stays fresh.
///
/// A tile is fresh for what the server's Cache-Control (max-age) or Expires says, and never
/// less than `minimumFreshness` (7 days by default, as the OpenStreetMap tile policy asks of
/// clients). A stale tile with an ETag or Last-Modified is revalidated with a conditional
/// request, and a 304 keeps the stored bytes. `no-store` tiles are not kept.
struct TileCache {
    struct Entry: Codable {
        var url: String
        var etag: String?
        var lastModified: String?
        /// Seconds since 1970 after which the tile must be revalidated.
        var freshUntil: Double
    }

    let folder: String
    var minimumFreshness: TimeInterval = 7 * 86_400

    /// `$XDG_CACHE_HOME/swiftprint/tiles`, else `~/.cache/swiftprint/tiles`.
    static var defaultFolder: String? {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/swiftprint/tiles" }
        guard let home = env["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/swiftprint/tiles"
    }

    /// The stored tile for `url`: its bytes and record, fresh or not.
    func lookUp(_ url: String) -> (data: Data, entry: Entry)? {
        let base = path(for: url)
        guard let record = FileBytes.read(base + ".json"),
              let entry = try? JSONDecoder().decode(Entry.self, from: record), entry.url == url,
              let data = FileBytes.read(base + ".tile") else { return nil }
        return (data, entry)
    }

    /// Keeps `data` for `url` as the server's headers allow. Written to temporary files and
    /// renamed, so two jobs filling the cache at once never leave half a tile.
    func store(_ data: Data, url: String, etag: String?, lastModified: String?, cacheControl: String?, expires: String?,
               now: Date = Date()) {
        let directives = Self.directives(cacheControl)
        guard !directives.keys.contains("no-store") else { return }
        var lifetime = minimumFreshness
        if let maxAge = directives["max-age"].flatMap(Double.init) {
            lifetime = max(lifetime, maxAge)
        } else if let expires, let date = Self.httpDate(expires) {
            lifetime = max(lifetime, date.timeIntervalSince(now))
        }
        // no-cache: keep it, but ask the server before each use.
        let freshUntil = directives.keys.contains("no-cache") ? 0 : now.timeIntervalSince1970 + lifetime
        let entry = Entry(url: url, etag: etag, lastModified: lastModified, freshUntil: freshUntil)
        let base = path(for: url)
        let folder = (base as NSString).deletingLastPathComponent
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
              let record = try? JSONEncoder().encode(entry) else { return }
        let suffix = ".\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
        if (try? data.write(to: URL(fileURLWithPath: base + ".tile" + suffix))) != nil,
           (try? record.write(to: URL(fileURLWithPath: base + ".json" + suffix))) != nil {
            rename(base + ".tile" + suffix, base + ".tile")
            rename(base + ".json" + suffix, base + ".json")
        } else {
            unlink(base + ".tile" + suffix)
            unlink(base + ".json" + suffix)
        }
    }

    /// After a 304: the stored bytes stay, fresh for another lifetime.
    func refresh(_ url: String, entry: Entry, cacheControl: String?, expires: String?) {
        guard let data = lookUp(url)?.data else { return }
        store(data, url: url, etag: entry.etag, lastModified: entry.lastModified, cacheControl: cacheControl, expires: expires)
    }

    /// Files are named by a 64-bit FNV-1a hash of the URL, spread over 256 folders; the record
    /// holds the URL, so a collision reads as a miss, never as another tile.
    private func path(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let name = String(hash, radix: 16)
        return "\(folder)/\(String(format: "%02llx", hash >> 56))/\(name)"
    }

    /// `max-age=604800, public` → ["max-age": "604800", "public": ""].
    static func directives(_ header: String?) -> [String: String] {
        var result: [String: String] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = pair.first, !name.isEmpty else { continue }
            result[name] = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
        }
        return result
    }

    /// An HTTP date (RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: text)
    }
}
