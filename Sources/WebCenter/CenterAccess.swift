import Foundation
import Hummingbird
import Synchronization

/// Who may use the Print Center: the user who started it, and only through its own page.
/// - Every request but the page itself and its files carries the token printed in the address
///   (header `X-SwiftPrint-Token`, or `token=` for the event stream, which a browser opens
///   without headers): others on the machine cannot list or cancel this user's jobs.
/// - Every action (POST) carries it in the header, and comes from the page's own origin
///   (`Origin`, `Sec-Fetch-Site`): a form on another site cannot set the header, and a
///   script there cannot read the token.
/// - The `Host` must be the address it serves: a name that another site rebinds to 127.0.0.1
///   reaches nothing.
final class CenterAccess: RouterMiddleware, Sendable {
    typealias Context = BasicRequestContext
    let token: String
    private let hosts = Mutex<Set<String>>([])

    init(token: String) { self.token = token }

    /// 32 random bytes, as hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }

    /// The names the page may be reached by, once the port is known.
    func allow(host: String, port: Int) {
        let names = host.hasPrefix("127.") || host == "localhost" ? [host, "localhost"] : [host, "[\(host)]"]
        hosts.withLock { $0.formUnion(names.map { "\($0):\(port)" }) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        guard hosts.withLock({ $0.contains(host) }) else { return Self.refused("this page is served as \(hosts.withLock { $0.sorted().first ?? "?" }) only") }
        let path = request.uri.path
        // The page and its files hold no user's data.
        if request.method == .get, CenterRoutes.publicPaths.contains(path) { return try await next(request, context) }
        let given = request.headers[.init("X-SwiftPrint-Token")!] ?? (request.method == .get ? request.uri.queryParameters["token"].map(String.init) : nil)
        guard let given, Self.same(given, token) else { return Self.refused("the token of this Print Center's address is missing or wrong") }
        if request.method != .get {
            if let origin = request.headers[.origin], !hosts.withLock({ $0.contains(origin.replacingOccurrences(of: "http://", with: "")) }) {
                return Self.refused("an action from another site (\(origin))")
            }
            if let site = request.headers[.init("Sec-Fetch-Site")!], site != "same-origin" {
                return Self.refused("an action from another site (Sec-Fetch-Site: \(site))")
            }
        }
        return try await next(request, context)
    }

    /// Compared in constant time: how long a wrong token takes says nothing of the right one.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func refused(_ why: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .forbidden, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "refused: \(why)\n")))
    }
}
