import Foundation
import PrintModel

/// The `swiftprint` program, which the page's files go through as a user's would at the
/// command line: `detect`, `preview`, `print`. So a file dropped on the page is typed, drawn and
/// printed by the same code, with the same limits and helpers (each in its own process), as
/// `swiftprint print file` would; and the web server never parses a document itself.
struct CenterTool: Sendable {
    let path: String

    struct Result: Sendable {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Runs `swiftprint arguments…` in `directory` and collects what it writes.
    func run(_ arguments: [String], in directory: String? = nil) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ended.continuation.yield($0.terminationStatus); ended.continuation.finish() }
        try process.run()
        // Both pipes are read while it runs: a full pipe would stop it.
        async let out = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        async let err = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }.value
        let (o, e) = await (out, err)
        var status: Int32 = -1
        for await s in ended.stream { status = s }
        return Result(status: status, output: o, errors: String(decoding: e, as: UTF8.self))
    }

    /// The problem a failed run names, as the command said it (its last line that says one), with
    /// the upload's name where the command named the file it was kept as.
    static func problem(_ result: Result, of upload: CenterUploads.Upload) -> String {
        let lines = result.errors.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Usage:") && !$0.contains("--help' for more") }
        var said = lines.last { $0.contains("error") } ?? lines.last ?? "swiftprint ended with status \(result.status)"
        for prefix in ["swiftprint: error: ", "swiftprint: ", "Error: "] where said.hasPrefix(prefix) { said.removeFirst(prefix.count) }
        said = said.replacingOccurrences(of: upload.path, with: upload.name)
        return said.hasPrefix(upload.name) ? said : "\(upload.name): \(said)"
    }
}
