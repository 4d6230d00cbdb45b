import CUPSClient
import Foundation
import Hummingbird
import PrintModel

/// What the page asks: printers, jobs (and their changes, as server-sent events), cancel. The
/// facts come from the same adapters as `swiftprint printers` and `swiftprint jobs`.
struct CenterRoutes: Sendable {
    let assets: CenterAssets

    /// Paths served without the token: the page and its files.
    static let publicPaths = Set(CenterAssets.served.map(\.path))

    /// How often the event stream asks CUPS for the jobs again.
    static let jobsInterval = Duration.milliseconds(500)

    func add(to router: Router<BasicRequestContext>) {
        for (path, file) in assets.files {
            router.get(RouterPath(path)) { _, _ in
                var headers = HTTPFields()
                headers[.contentType] = file.contentType
                headers[.cacheControl] = "no-store"
                headers[.init("Content-Security-Policy")!] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
            }
        }
        router.get("/api/printers") { _, _ in
            try Self.json(try await PrinterDirectory.printers(capabilities: true))
        }
        router.get("/api/jobs") { request, _ in
            try Self.json(try await Self.jobs(all: request.uri.queryParameters["all"] == "1"))
        }
        router.get("/api/events") { request, _ in
            let all = request.uri.queryParameters["all"] == "1"
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                var last = Data()
                // Until the page goes or the server stops. Something is written every time (a
                // comment line when nothing changed), so that a page that has gone is noticed
                // at once and its loop ends, not kept asking CUPS for nobody.
                while !Task.isCancelled {
                    let now = (try? Self.encoder.encode(try await Self.jobs(all: all))) ?? Data("[]".utf8)
                    if now != last {
                        try await writer.write(ByteBuffer(string: "event: jobs\ndata: \(String(decoding: now, as: UTF8.self))\n\n"))
                        last = now
                    } else {
                        try await writer.write(ByteBuffer(string: ":\n\n"))
                    }
                    try await Task.sleep(for: Self.jobsInterval)
                }
                try await writer.finish(nil)
            })
        }
        router.post("/api/jobs/:id/cancel") { _, context in
            guard let id = context.parameters.get("id", as: Int.self) else { throw HTTPError(.badRequest, message: "no job number") }
            do { try await PrintCenter.shared.cancel(job: id) } catch let e as PrintError { throw HTTPError(.conflict, message: e.message) }
            return Response(status: .noContent)
        }
    }

    /// This user's jobs (unfinished, or all that CUPS keeps), newest first.
    static func jobs(all: Bool) async throws -> [JobStatus] {
        try await PrintCenter.shared.jobs(includeFinished: all).sorted { $0.id > $1.id }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func json(_ value: some Encodable) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
