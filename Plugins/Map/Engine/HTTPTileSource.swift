import CCurlShim
import Foundation
import Logging
import HandlerSupport

/// Tiles from a tile server, by URL template: `https://tile.example.org/{z}/{x}/{y}.png`.
/// Placeholders: `{z}` `{x}` `{y}`, `{-y}` (the TMS row), and `{r}`, which stays empty (standard
/// 256-pixel tiles; 512-pixel "@2x" tiles would be drawn at 256 anyway).
///
/// Network use is opt-in (naming a URL is the opt-in) and polite: a User-Agent naming
/// swiftprint and its version, at most `maxRequestsAtOnce` requests at a time, timeouts, retries
/// with backoff on 429, 5xx and transport errors (Retry-After honoured), and a disk cache
/// (`TileCache`). Only the tiles under the map are asked for, never a prefetch around it, and
/// tile.openstreetmap.org, whose usage policy forbids bulk downloads, serves at most
/// `openStreetMapLimit` uncached tiles per job.
public final class HTTPTileSource: TileSource {
    public struct Settings: Sendable {
        /// Sent as it is if it names swiftprint; otherwise "swiftprint/VERSION" is added.
        public var userAgent: String?
        public var maxRequestsAtOnce = 4
        public var connectTimeout: TimeInterval = 10
        public var timeout: TimeInterval = 30
        /// Attempts after the first, for tiles that failed for a reason that may pass.
        public var retries = 3
        /// Seconds before the first retry; doubled for each next one.
        public var backoff: TimeInterval = 0.5
        /// nil: no disk cache.
        public var cacheFolder: String? = TileCache.defaultFolder
        public var minimumFreshness: TimeInterval = 7 * 86_400
        public init() {}
    }

    public static let openStreetMapLimit = 250

    public let info: TileSetInfo
    public let template: String
    private let settings: Settings
    private let cache: TileCache?
    private let host: String
    private var fetched: [TileID: Data] = [:]
    private var asked: Set<TileID> = []
    private let logger = Logger(label: "swiftprint.map.tiles")

    public init(template: String, settings: Settings = Settings(), attribution: String? = nil, maxZoom: Int? = nil) throws {
        guard let url = URL(string: template.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw PrintError(.invalidOption, path: template, "a tile URL template is an http or https URL")
        }
        for needed in ["{z}", "{x}"] where !template.contains(needed) {
            throw PrintError(.invalidOption, path: template, "the tile URL template lacks \(needed)")
        }
        guard template.contains("{y}") || template.contains("{-y}") else {
            throw PrintError(.invalidOption, path: template, "the tile URL template lacks {y} (or {-y})")
        }
        let known = ["{z}", "{x}", "{y}", "{-y}", "{r}"]
        var rest = template
        for k in known { rest = rest.replacingOccurrences(of: k, with: "") }
        if let open = rest.firstIndex(of: "{") {
            let unknown = rest[open...].prefix { $0 != "}" } + "}"
            throw PrintError(.invalidOption, path: template, "the tile URL template has \(unknown), which is not one of \(known.joined(separator: " "))")
        }
        self.template = template
        self.host = host.lowercased()
        self.settings = settings
        cache = settings.cacheFolder.map { TileCache(folder: $0, minimumFreshness: settings.minimumFreshness) }
        var info = TileSetInfo()
        info.name = host
        info.maxZoom = maxZoom ?? 19
        info.attribution = attribution.map(plainText(fromHTML:))
            ?? (self.host.hasSuffix("openstreetmap.org") ? "© OpenStreetMap contributors" : nil)
        self.info = info
    }

    var isOpenStreetMap: Bool { host == "tile.openstreetmap.org" || host.hasSuffix(".tile.openstreetmap.org") }

    var userAgent: String {
        let ours = "swiftprint/\(SwiftPrintVersion.current) (+https://github.com/swiftprint/swiftprint)"
        guard let given = settings.userAgent, !given.isEmpty else { return ours }
        return given.lowercased().contains("swiftprint") ? given : given + " " + ours
    }

    public func url(for id: TileID) -> String {
        template.replacingOccurrences(of: "{z}", with: String(id.z)).replacingOccurrences(of: "{x}", with: String(id.x))
            .replacingOccurrences(of: "{-y}", with: String((1 << id.z) - 1 - id.y))
            .replacingOccurrences(of: "{y}", with: String(id.y)).replacingOccurrences(of: "{r}", with: "")
    }

    public func tile(_ id: TileID) throws -> Data? {
        if !asked.contains(id) { try prefetch([id]) }
        return fetched[id]
    }

    /// A tile to download, with the cached copy it may refresh.
    typealias PendingTile = (id: TileID, url: String, stale: (data: Data, entry: TileCache.Entry)?)

    /// Fetches every tile in `ids` not yet fetched: from the cache when fresh, else from the
    /// server, several at a time.
    public func prefetch(_ ids: [TileID]) throws {
        var pending = fromCache(ids)
        guard !pending.isEmpty else { return }
        if isOpenStreetMap, pending.count > Self.openStreetMapLimit {
            throw PrintError(.invalidOption, path: template,
                             "the map needs \(pending.count) tiles from tile.openstreetmap.org, whose usage policy forbids bulk downloads (at most \(Self.openStreetMapLimit) per job): make the map smaller, use a coarser scale, or use an MBTiles file or another tile server")
        }
        var failures: [TileID: String] = [:]
        var received = 0
        for attempt in 0...settings.retries {
            if attempt > 0 {
                let wait = min(30, settings.backoff * pow(2, Double(attempt - 1)))
                logger.info("\(host): \(pending.count) tiles failed (\(failures.values.first ?? "")); retrying in \(wait) s")
                Thread.sleep(forTimeInterval: wait)
            }
            let retryAfter: TimeInterval
            (pending, retryAfter) = try receive(try fetch(pending.map { ($0.url, $0.stale?.entry) }), for: pending,
                                                failures: &failures, received: &received)
            if pending.isEmpty { break }
            if retryAfter > 0 { Thread.sleep(forTimeInterval: min(30, retryAfter)) }
        }
        try settle(pending, failures: failures, received: received)
    }

    /// The tiles of `ids` not asked for before that the cache cannot give fresh; the others are
    /// taken from it.
    private func fromCache(_ ids: [TileID]) -> [PendingTile] {
        var pending: [PendingTile] = []
        for id in Set(ids).subtracting(asked).sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }) {
            asked.insert(id)
            let url = url(for: id)
            let stored = cache?.lookUp(url)
            if let stored, stored.entry.freshUntil > Date().timeIntervalSince1970 {
                fetched[id] = stored.data
            } else {
                pending.append((id, url, stored))
            }
        }
        return pending
    }

    /// Takes the tiles the server gave (or said it has not); returns those to ask again and
    /// how long the server asked to wait.
    private func receive(_ responses: [Response], for pending: [PendingTile], failures: inout [TileID: String],
                         received: inout Int) throws -> (retry: [PendingTile], retryAfter: TimeInterval) {
        var retry: [PendingTile] = []
        var retryAfter: TimeInterval = 0
        for (request, response) in zip(pending, responses) {
            switch response.status {
            case 200:
                fetched[request.id] = response.body
                received += 1
                cache?.store(response.body, url: request.url, etag: response.etag, lastModified: response.lastModified,
                             cacheControl: response.cacheControl, expires: response.expires)
            case 304 where request.stale != nil:
                fetched[request.id] = request.stale!.data
                received += 1
                cache?.refresh(request.url, entry: request.stale!.entry, cacheControl: response.cacheControl, expires: response.expires)
            case 204, 404, 410:
                received += 1  // the server answered: it has no such tile
            case 0, 408, 425, 429, 500...599:
                failures[request.id] = response.status == 0 ? response.error : "HTTP \(response.status)"
                retryAfter = max(retryAfter, response.retryAfter.flatMap(TimeInterval.init) ?? 0)
                retry.append(request)
            default:
                throw PrintError(.notAvailable, path: request.url, "the tile server refused the tile (HTTP \(response.status))")
            }
        }
        return (retry, retryAfter)
    }

    /// Out of attempts: a stored copy, however old, is better than a hole (and said so); with
    /// nothing at all from the server, the job fails.
    private func settle(_ pending: [PendingTile], failures: [TileID: String], received: Int) throws {
        var stillMissing = 0
        for request in pending {
            if let stale = request.stale {
                fetched[request.id] = stale.data
                logger.warning("\(request.url): \(failures[request.id] ?? "failed"); using the cached copy")
            } else {
                stillMissing += 1
            }
        }
        guard stillMissing > 0 else { return }
        let reason = failures.values.first ?? "failed"
        if received == 0, stillMissing == pending.count, fetched.isEmpty {
            throw PrintError(.notAvailable, path: template, "cannot get tiles from \(host): \(reason)")
        }
        logger.warning("\(host): \(stillMissing) tiles could not be fetched after \(settings.retries + 1) attempts: \(reason)")
    }

    struct Response {
        var status: Int
        var body: Data
        var etag, lastModified, cacheControl, expires, retryAfter: String?
        var error: String
    }

    /// One round of requests through libcurl.
    private func fetch(_ requests: [(url: String, revalidate: TileCache.Entry?)]) throws -> [Response] {
        var strings: [UnsafeMutablePointer<CChar>?] = []
        defer { strings.forEach { free($0) } }
        func c(_ s: String?) -> UnsafePointer<CChar>? {
            guard let s else { return nil }
            let p = strdup(s)
            strings.append(p)
            return UnsafePointer(p)
        }
        let agent = c(userAgent)
        var options = SPCOptions(user_agent: agent, max_per_host: settings.maxRequestsAtOnce,
                                 connect_timeout_ms: Int(settings.connectTimeout * 1000), timeout_ms: Int(settings.timeout * 1000),
                                 max_body_bytes: 16 << 20)
        let cRequests = requests.map { r in
            SPCRequest(url: c(r.url), if_none_match: c(r.revalidate?.etag), if_modified_since: c(r.revalidate?.lastModified))
        }
        var cResponses = [SPCResponse](repeating: SPCResponse(), count: requests.count)
        var error: UnsafeMutablePointer<CChar>?
        let status = cRequests.withUnsafeBufferPointer { rq in
            cResponses.withUnsafeMutableBufferPointer { rs in
                spc_fetch_all(rq.baseAddress, rs.baseAddress, rq.count, &options, &error)
            }
        }
        guard status == 0 else {
            defer { free(error) }
            throw PrintError(.notAvailable, path: template, error.map { String(cString: $0) } ?? "libcurl cannot start")
        }
        return cResponses.indices.map { i in
            var r = cResponses[i]
            defer { spc_response_clear(&r) }
            func s(_ p: UnsafeMutablePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
            let message = withUnsafeBytes(of: r.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Response(status: r.status, body: r.body.map { Data(bytes: $0, count: r.body_size) } ?? Data(),
                            etag: s(r.etag), lastModified: s(r.last_modified), cacheControl: s(r.cache_control),
                            expires: s(r.expires), retryAfter: s(r.retry_after), error: message)
        }
    }
}
