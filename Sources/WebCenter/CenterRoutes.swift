import CUPSClient
import Foundation
import Hummingbird
import PrintModel

/// What the page asks: printers, jobs (and their changes, as server-sent events), cancel; and
/// files to print: kept (`CenterUploads`), typed, previewed and printed by `swiftprint` itself
/// (`CenterTool`) with the options of the form (`CenterForm`). The facts come from the same
/// adapters as `swiftprint printers` and `swiftprint jobs`.
struct CenterRoutes: Sendable {
    let assets: CenterAssets
    let uploads: CenterUploads
    let tool: CenterTool

    /// The preview's pixels per inch: an A4 side is 331 × 468 pixels.
    static let previewResolution = 40
    /// The sides a preview draws at most; the page says how many more the job has.
    static let previewSides = 24

    /// Paths served without the token: the page and its files.
    static let publicPaths = Set(CenterAssets.served.map(\.path))

    /// How often the event stream asks CUPS for the jobs again.
    static let jobsInterval = Duration.milliseconds(500)

    func add(to router: Router<BasicRequestContext>) {
        for (path, file) in assets.files {
            router.get(RouterPath(path)) { _, _ in
                var headers = Self.uncached(file.contentType)
                headers[.init("Content-Security-Policy")!] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
            }
        }
        router.get("/api/printers") { _, _ in
            try Self.json(try await PrinterDirectory.printers(capabilities: true))
        }
        router.get("/api/me") { _, _ in
            try Self.json(Me(user: PrintCenter.user, administrator: Self.administrator))
        }
        router.get("/api/jobs") { request, _ in
            try Self.json(try await Self.jobs(all: request.uri.queryParameters["all"] == "1", everyone: try Self.everyone(request)))
        }
        router.get("/api/events") { request, _ in
            let all = request.uri.queryParameters["all"] == "1"
            let everyone = try Self.everyone(request)
            return Response(status: .ok, headers: Self.uncached("text/event-stream"), body: ResponseBody { writer in
                var last = Data()
                // Until the page goes or the server stops. Something is written every time (a
                // comment line when nothing changed), so that a page that has gone is noticed
                // at once and its loop ends, not kept asking CUPS for nobody.
                while !Task.isCancelled {
                    let now = (try? Self.encoder.encode(try await Self.jobs(all: all, everyone: everyone))) ?? Data("[]".utf8)
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
        // Cancel, hold, release: of this user's jobs only, whatever the server's policy would
        // let this user do: the page shows no one else's, and acts on nothing it does not show.
        // An administrator's page shows every user's, and cupsd decides.
        let actions: [(String, @Sendable (Int) async throws -> Void)] = [
            ("cancel", { try await PrintCenter.shared.cancel(job: $0) }),
            ("hold", { try await PrintCenter.shared.hold(job: $0) }),
            ("release", { try await PrintCenter.shared.release(job: $0) }),
        ]
        for (name, act) in actions {
            router.post(RouterPath("/api/jobs/:id/" + name)) { _, context in
                guard let id = context.parameters.get("id", as: Int.self) else { throw HTTPError(.badRequest, message: "no job number") }
                guard try await PrintCenter.shared.jobs(includeFinished: true, allUsers: Self.administrator).contains(where: { $0.id == id }) else {
                    throw HTTPError(.forbidden, message: "job \(id) is not one of yours")
                }
                do { try await act(id) } catch let e as PrintError { throw HTTPError(.conflict, message: e.message) }
                return Response(status: .noContent)
            }
        }
        // Every unfinished job of this user's, as `swiftprint cancel --all`.
        router.post("/api/jobs/cancel-all") { _, _ in
            let ids = try await PrintCenter.shared.jobs().map(\.id)
            for id in ids { do { try await PrintCenter.shared.cancel(job: id) } catch let e as PrintError { throw HTTPError(.conflict, message: e.message) } }
            return try Self.json(["cancelled": ids])
        }
    }

    func addPrinting(to router: Router<BasicRequestContext>) {
        router.get("/api/form") { _, _ in try Self.json(CenterForm.groups) }
        router.post("/api/files") { request, _ in
            let given = request.headers[.init("X-SwiftPrint-File-Name")!].flatMap { $0.removingPercentEncoding } ?? "file"
            let upload: CenterUploads.Upload
            do { upload = try await uploads.store(name: given, body: request.body) } catch CenterUploads.UploadError.tooLarge(let limit) {
                throw HTTPError(.contentTooLarge, message: "\(CenterUploads.shownName(given)): larger than the \(limit >> 20) MB an upload may be")
            }
            do {
                let detected = try await tool.run(["detect", "--json", upload.path])
                struct Detected: Decodable { var mime: String; var uti: String?; var handler: String? }
                guard detected.status == 0, let type = try? JSONDecoder().decode(Detected.self, from: detected.output) else {
                    throw HTTPError(.unprocessableContent, message: CenterTool.problem(detected, of: upload))
                }
                guard let handler = type.handler else {
                    throw HTTPError(.unsupportedMediaType, message: "\(upload.name): swiftprint prints no \(type.mime) files")
                }
                let preview = try await self.preview(upload, options: [])
                return try Self.json(UploadReply(id: upload.id, name: upload.name, mime: type.mime, type: type.uti ?? type.mime,
                                                 handler: handler, preview: preview), status: .created)
            } catch {
                await uploads.remove(upload.id)
                throw error
            }
        }
        router.post("/api/files/:id/preview") { request, context in
            let (upload, chosen) = try await self.request(request, context)
            return try Self.json(try await self.preview(upload, options: try Self.arguments(chosen.options)))
        }
        router.post("/api/files/:id/print") { request, context in
            let (upload, chosen) = try await self.request(request, context)
            guard let printer = chosen.printer, !printer.isEmpty else { throw HTTPError(.badRequest, message: "no printer chosen") }
            let result = try await tool.run(["print", "-d", printer, "--no-wait", "--title", upload.name] + Self.arguments(chosen.options) + [upload.path])
            guard result.status == 0, let job = Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw HTTPError(.unprocessableContent, message: CenterTool.problem(result, of: upload))
            }
            // CUPS holds the job's own copy now.
            await uploads.remove(upload.id)
            return try Self.json(["job": job])
        }
        router.delete("/api/files/:id") { _, context in
            await uploads.remove(context.parameters.get("id") ?? "")
            return Response(status: .noContent)
        }
    }

    /// The save-as-PDF queues' files of this user's: listed, opened or downloaded, drawn small,
    /// deleted. Each by its id (`CenterSavedPDFs`).
    func addSavedPDFs(to router: Router<BasicRequestContext>) {
        router.get("/api/saved") { _, _ in try Self.json(try await CenterSavedPDFs.list()) }
        router.get("/api/saved/:id") { request, context in
            let saved = try await Self.saved(context)
            guard let bytes = FileManager.default.contents(atPath: saved.path) else { throw HTTPError(.notFound, message: "\(saved.name) can no longer be read") }
            var headers = Self.uncached("application/pdf")
            // The name as a download's, its quotes and controls left out (RFC 6266's filename*).
            let encoded = saved.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._"))) ?? "saved.pdf"
            let how = request.uri.queryParameters["download"] == "1" ? "attachment" : "inline"
            headers[.contentDisposition] = "\(how); filename*=UTF-8''\(encoded)"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("/api/saved/:id/thumbnail") { _, context in
            let saved = try await Self.saved(context)
            let result = try await tool.run(["preview", "--page", "1", "--resolution", "24", "-o", "-", saved.path])
            guard result.status == 0 else { throw HTTPError(.unprocessableContent, message: "\(saved.name): cannot be drawn") }
            return Response(status: .ok, headers: Self.uncached("image/png"), body: .init(byteBuffer: ByteBuffer(bytes: result.output)))
        }
        router.delete("/api/saved/:id") { _, context in
            let saved = try await Self.saved(context)
            guard unlink(saved.path) == 0 else {
                throw HTTPError(.conflict, message: "\(saved.name) cannot be deleted: \(String(cString: strerror(errno)))")
            }
            return Response(status: .noContent)
        }
    }

    private static func saved(_ context: BasicRequestContext) async throws -> CenterSavedPDFs.Saved {
        guard let saved = try await CenterSavedPDFs.find(context.parameters.get("id") ?? "") else {
            throw HTTPError(.notFound, message: "no such saved PDF")
        }
        return saved
    }

    struct UploadReply: Encodable {
        var id, name, mime, type, handler: String
        var preview: Preview
    }

    struct Preview: Encodable {
        /// The first sides (at most `previewSides`) as PNG `data:` URLs, in order.
        var sides: [String]
        /// How many sides the job has.
        var total: Int
    }

    /// What the page sends with a preview or a print: the form's values by flag, and the printer.
    struct Chosen: Decodable {
        var options: [String: String]
        var printer: String?
    }

    private func request(_ request: Request, _ context: BasicRequestContext) async throws -> (CenterUploads.Upload, Chosen) {
        guard let upload = await uploads.upload(context.parameters.get("id") ?? "") else {
            throw HTTPError(.notFound, message: "no such file: it was printed or removed")
        }
        let body = try await request.body.collect(upTo: 1 << 20)
        guard let chosen = try? JSONDecoder().decode(Chosen.self, from: Data(buffer: body)) else {
            throw HTTPError(.badRequest, message: "the request is not the form's values")
        }
        return (upload, chosen)
    }

    private static func arguments(_ chosen: [String: String]) throws -> [String] {
        do { return try CenterForm.arguments(for: chosen) } catch let error as PrintError { throw HTTPError(.badRequest, message: error.message) }
    }

    /// Every side of the job `swiftprint preview` makes of `upload` with `options`, as PNGs.
    private func preview(_ upload: CenterUploads.Upload, options: [String]) async throws -> Preview {
        let folder = (upload.path as NSString).deletingLastPathComponent + "/preview-" + String(CenterAccess.newToken().prefix(8))
        guard mkdir(folder, 0o700) == 0 else { throw HTTPError(.internalServerError, message: "cannot make the preview") }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await tool.run(["preview", "--page", "1-\(Self.previewSides)", "--resolution", String(Self.previewResolution),
                                         "-o", folder + "/side-%d.png"] + options + [upload.path])
        guard result.status == 0 else { throw HTTPError(.unprocessableContent, message: CenterTool.problem(result, of: upload)) }
        var sides: [String] = []
        while let png = FileManager.default.contents(atPath: folder + "/side-\(sides.count + 1).png") {
            sides.append("data:image/png;base64," + png.base64EncodedString())
        }
        let total = Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? sides.count
        return Preview(sides: sides, total: total)
    }

    /// This user's jobs, or every user's (`everyone`, an administrator's page): unfinished, or
    /// all that CUPS keeps; newest first.
    static func jobs(all: Bool, everyone: Bool = false) async throws -> [JobStatus] {
        try await PrintCenter.shared.jobs(includeFinished: all, allUsers: everyone).sorted { $0.id > $1.id }
    }

    /// Whether the page's user administers CUPS, read once.
    static let administrator = PrintCenter.isAdministrator()

    struct Me: Encodable {
        var user: String
        var administrator: Bool
    }

    /// `users=all`: every user's jobs, which only an administrator's page may ask for.
    static func everyone(_ request: Request) throws -> Bool {
        guard request.uri.queryParameters["users"] == "all" else { return false }
        guard administrator else { throw HTTPError(.forbidden, message: "every user's jobs are shown to CUPS's administrators only") }
        return true
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// Every answer's headers: its type, and never kept by the browser (each holds this
    /// user's data or the page as it is now).
    static func uncached(_ contentType: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        return headers
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: Self.uncached("application/json"), body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
