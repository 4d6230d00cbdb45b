import ArgumentParser
import Foundation
import PrintModel

/// The Print Center as a web page: `swiftprint-center`, a program of its own (so that no other
/// command loads a web server), takes this process's place.
struct Center: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print files, see printers and your jobs in the browser, live; cancel jobs there.",
        discussion: """
        Serves a page on this machine only (127.0.0.1, a free port) and prints its address, \
        which holds a random token: only whoever has the address can use it. Stop it with Ctrl-C.

        Files dropped on the page are kept in a private folder until they are printed or \
        removed, and typed, previewed (every side, with the options chosen) and printed by \
        this program, as `swiftprint detect`, `preview` and `print` would.

        Examples:
          swiftprint center
          swiftprint center --open
        """
    )

    @Option(help: ArgumentHelp("Port to listen on (default: any free one).", valueName: "port"))
    var port: Int?

    @Flag(help: "Open the page in the browser.")
    var open = false

    @Option(help: ArgumentHelp("The largest file the page takes (default 256).", valueName: "MB"))
    var maxUpload: Int?

    func run() throws {
        guard let helper = Installation.helper("swiftprint-center", override: "SWIFTPRINT_CENTER") else {
            throw ValidationError("swiftprint-center is not installed beside swiftprint")
        }
        let arguments = [helper, "--swiftprint", Installation.executable ?? CommandLine.arguments[0]] + (port.map { ["--port", String($0)] } ?? []) + (maxUpload.map { ["--max-upload", String($0)] } ?? []) + (open ? ["--open"] : [])
        let argv = arguments.map { strdup($0) } + [nil]
        execv(helper, argv)
        throw ValidationError("cannot start \(helper): \(String(cString: strerror(errno)))")
    }
}
