import Foundation
import TestSupport
import Testing

/// The shared markup renderer (`SWIFTPRINT_MARKUP_KEEP`): later runs of the same user reuse one
/// WebKit, each still printing its own document, and it goes away when idle. Each test has a
/// runtime folder of its own, so its renderer is its own.
@Suite(.serialized) struct SharedRendererTests {
    /// A run of `swiftprint convert` with the shared renderer kept `keep` seconds.
    func convert(_ input: String, runtime: String, keep: String = "30") throws -> (Tool.Result, String) {
        let out = try temporaryDirectory() + "/out.pdf"
        let r = try swiftprint(["convert", input, "-o", out, "--verbose"],
                               env: ["XDG_RUNTIME_DIR": runtime, "SWIFTPRINT_MARKUP_KEEP": keep])
        return (r, out)
    }

    /// The shared renderer's process id, from a run's log.
    func rendererPID(_ stderr: String) -> pid_t? {
        guard let line = stderr.split(separator: "\n").first(where: { $0.contains("using the shared markup renderer") }),
              let open = line.range(of: "(pid ", options: .backwards) else { return nil }
        return pid_t(line[open.upperBound...].prefix { $0.isNumber })
    }

    func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    @Test func laterRunsReuseOneRendererAndEachPrintsItsOwnDocument() throws {
        let runtime = try temporaryDirectory()
        let dir = try temporaryDirectory()
        let page = dir + "/page.html"
        try "<html><body><p>version one</p></body></html>".write(toFile: page, atomically: false, encoding: .utf8)
        let (first, out1) = try convert(page, runtime: runtime)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("started a shared markup renderer"))
        let pid = try #require(rendererPID(first.stderr), "\(first.stderr)")
        defer { kill(pid, SIGTERM) }
        #expect(try PDF.text(out1).contains("version one"))
        // The same file name with other bytes: the second run must print them, not the page
        // the renderer still holds.
        try "<html><body><p>version two</p></body></html>".write(toFile: page, atomically: false, encoding: .utf8)
        let (second, out2) = try convert(page, runtime: runtime)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("started a shared markup renderer"), "\(second.stderr)")
        #expect(rendererPID(second.stderr) == pid)
        #expect(try PDF.text(out2).contains("version two"))
        // Two runs at once are served in turn, each with its own document.
        let words = ["kilo", "lima"]
        for w in words { try "<html><body><p>document \(w)</p></body></html>".write(toFile: dir + "/\(w).html", atomically: false, encoding: .utf8) }
        let results = Locked<[String: (Tool.Result, String)]>([:])
        DispatchQueue.concurrentPerform(iterations: words.count) { i in
            if let r = try? convert(dir + "/\(words[i]).html", runtime: runtime) { results.withLock { $0[words[i]] = r } }
        }
        for w in words {
            let (r, out) = try #require(results.withLock { $0[w] })
            #expect(r.status == 0, "\(r.stderr)")
            #expect(rendererPID(r.stderr) == pid, "\(r.stderr)")
            #expect(try PDF.text(out).contains("document \(w)"))
        }
        let folder = runtime + "/swiftprint"
        var info = stat()
        #expect(lstat(folder + "/markup.socket", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(lstat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func theRendererStopsWhenIdle() throws {
        let runtime = try temporaryDirectory()
        let dir = try temporaryDirectory()
        try "<html><body><p>brief</p></body></html>".write(toFile: dir + "/brief.html", atomically: false, encoding: .utf8)
        let (r, _) = try convert(dir + "/brief.html", runtime: runtime, keep: "1")
        #expect(r.status == 0, "\(r.stderr)")
        let pid = try #require(rendererPID(r.stderr), "\(r.stderr)")
        let end = Date().addingTimeInterval(15)
        while isRunning(pid) && Date() < end { usleep(100_000) }
        #expect(!isRunning(pid), "the renderer is still running 15 s after its only document")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/swiftprint/markup.socket"))
    }

    @Test func aFolderOthersCanEnterIsNotUsed() throws {
        let runtime = try temporaryDirectory()
        mkdir(runtime + "/swiftprint", 0o755)
        chmod(runtime + "/swiftprint", 0o755)
        let dir = try temporaryDirectory()
        try "<html><body><p>still printed</p></body></html>".write(toFile: dir + "/p.html", atomically: false, encoding: .utf8)
        let (r, out) = try convert(dir + "/p.html", runtime: runtime)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("is not a private folder"), "\(r.stderr)")
        #expect(r.stderr.contains("started the markup renderer"), "a renderer of the run's own: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/swiftprint/markup.socket"))
        #expect(try PDF.text(out).contains("still printed"))
    }
}

/// A value behind a lock, for results gathered from concurrent runs.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
