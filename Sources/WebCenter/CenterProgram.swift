// swiftprint-center: the Print Center as a page in the browser (issue 45). `swiftprint center`
// runs it: a program of its own, so that no other command loads a web server. It serves one
// user, on loopback by default, behind a random token printed in its address (CenterAccess).
import ArgumentParser
import Foundation
import Hummingbird
import PrintModel

@main
struct CenterProgram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftprint-center",
        abstract: "Serve the Print Center (files to print, printers, jobs, cancel) as a web page for this user.")

    @Option(help: "Address to listen on; only loopback addresses without --tls (not yet offered).")
    var listen = "127.0.0.1"

    @Option(help: "Port (0: any free one).")
    var port = 0

    @Flag(help: "Open the page in the browser (xdg-open).")
    var open = false

    @Option(help: "The swiftprint program that types, previews and prints the page's files (swiftprint center gives its own).")
    var swiftprint: String

    @Option(help: ArgumentHelp("The largest file the page takes, in MB.", valueName: "MB"))
    var maxUpload = CenterUploads.defaultLimit >> 20

    func validate() throws {
        guard CenterAccess.isLoopback(listen) else {
            throw ValidationError("--listen \(listen): a network address needs TLS, which swiftprint center does not offer yet; it serves loopback only")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): not a port (0 to 65535)") }
        guard (1...(1 << 20)).contains(maxUpload) else { throw ValidationError("--max-upload \(maxUpload): 1 MB or more") }
        guard FileManager.default.isExecutableFile(atPath: swiftprint) else { throw ValidationError("--swiftprint \(swiftprint): not a program") }
    }

    func run() async throws {
        guard let assets = CenterAssets(configDirectory: Installation.configDirectory) else {
            throw ValidationError("the Print Center's page (Config/center) is not installed")
        }
        let access = CenterAccess(token: CenterAccess.newToken())
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: access)
        let uploads = try CenterUploads(limit: maxUpload << 20)
        let signalSources = Self.removeOnTermination(uploads)
        let routes = CenterRoutes(assets: assets, uploads: uploads, tool: CenterTool(path: swiftprint))
        routes.add(to: router)
        routes.addPrinting(to: router)
        routes.addSavedPDFs(to: router)
        let opens = open
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(listen, port: port), serverName: "swiftprint-center"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                access.allow(host: listen, port: bound)
                let address = "http://\(listen.contains(":") ? "[\(listen)]" : listen):\(bound)/?token=\(access.token)"
                // The one line a user (or a test) reads: where the page is.
                FileHandle.standardOutput.write(Data("swiftprint center: \(address)\n".utf8))
                if opens { _ = try? Process.run(URL(fileURLWithPath: "/usr/bin/xdg-open"), arguments: [address]) }
            })
        // Not runService's graceful shutdown: it would wait for every open event stream (a
        // page left open) to end. SIGTERM and Ctrl-C end the server at once; it holds nothing
        // that must be saved.
        defer { uploads.removeAll() }
        try await app.run()
        // The signal sources live as long as the server.
        withExtendedLifetime(signalSources) {}
    }

    /// SIGTERM and Ctrl-C end the server at once; the user's files go with it.
    private static func removeOnTermination(_ uploads: CenterUploads) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                uploads.removeAll()
                Glibc.exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
