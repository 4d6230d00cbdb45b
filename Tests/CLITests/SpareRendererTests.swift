import Foundation
import TestSupport
import Testing

/// The spare markup renderer (`swiftprint-markup --spare`, issue 40): started ahead of a run,
/// taken by the next run of its user that needs WebKit, which it serves alone before it exits.
/// Each test has a runtime folder of its own, so its spare is its own.
@Suite(.serialized) struct SpareRendererTests {
    /// swiftprint-markup beside the swiftprint under test, as a run finds it.
    static var helper: String {
        let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: Tool.swiftprint)) ?? Tool.swiftprint
        let resolved = real.hasPrefix("/") ? real : (Tool.swiftprint as NSString).deletingLastPathComponent + "/" + real
        return (resolved as NSString).deletingLastPathComponent + "/swiftprint-markup"
    }

    /// A spare of `executable` for `runtime`, once it says it is ready.
    static func startSpare(runtime: String, executable: String = helper, environment: [String: String] = [:],
                           arguments: [String] = ["--spare"]) throws -> Process {
        let spare = Process()
        spare.executableURL = URL(fileURLWithPath: executable)
        spare.arguments = arguments
        spare.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime].merging(environment) { $1 }) { $1 }
        let out = Pipe()
        spare.standardOutput = out
        spare.standardError = FileHandle.nullDevice
        try spare.run()
        // "ready SECONDS" once it listens.
        let said = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        try #require(said.hasPrefix("ready "), "the spare said \"\(said)\"")
        return spare
    }

    static func waitForExit(_ process: Process, seconds: Double = 15) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { usleep(50_000) }
        return !process.isRunning
    }

    /// Ends a spare (and its display and WebKit, in its process group) that is still running:
    /// SIGTERM, then SIGKILL to the group after 10 s. False when SIGTERM was not enough.
    @discardableResult
    static func stop(_ spare: Process) -> Bool {
        guard spare.isRunning else { return true }
        let group = spare.processIdentifier
        spare.terminate()
        if waitForExit(spare, seconds: 10) { return true }
        kill(-group, SIGKILL)
        kill(group, SIGKILL)
        return false
    }

    static let document = "<html><body><h1>Spare</h1><p>See <a href=\"https://example.com/\">the site</a>.</p></body></html>"

    @Test func aSpareServesOneRunAloneAndExits() throws {
        let runtime = try temporaryDirectory(), dir = try temporaryDirectory()
        try Self.document.write(toFile: dir + "/page.html", atomically: false, encoding: .utf8)
        let spare = try Self.startSpare(runtime: runtime)
        defer { Self.stop(spare) }
        let r = try swiftprint(["convert", "--verbose", dir + "/page.html", "-o", dir + "/spare.pdf"],
                               env: ["XDG_RUNTIME_DIR": runtime, "SOURCE_DATE_EPOCH": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("using a spare markup renderer (pid \(spare.processIdentifier)), started")
                && r.stderr.contains("ready after"), "\(r.stderr)")
        #expect(!r.stderr.contains("started the markup renderer"))
        // It served that run only: it is gone, and so are its socket and its account.
        #expect(Self.waitForExit(spare), "the spare still runs after its run ended")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/swiftprint/markup-spare.socket"))
        #expect(!FileManager.default.fileExists(atPath: runtime + "/swiftprint/markup-spare.info"))
        // The next run finds none and starts its own; the two prints are the same bytes.
        let cold = try swiftprint(["convert", "--verbose", dir + "/page.html", "-o", dir + "/cold.pdf"],
                                  env: ["XDG_RUNTIME_DIR": runtime, "SOURCE_DATE_EPOCH": "1"])
        #expect(cold.status == 0 && cold.stderr.contains("started the markup renderer"), "\(cold.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/spare.pdf") == FileManager.default.contents(atPath: dir + "/cold.pdf"))
        #expect(try PDF.links(dir + "/spare.pdf").map(\.uri) == ["https://example.com/"])
    }

    /// `SWIFTPRINT_MARKUP_SPARE=0`: the run starts its own renderer and leaves the spare waiting.
    @Test func aRunCanDeclineTheSpare() throws {
        let runtime = try temporaryDirectory(), dir = try temporaryDirectory()
        try Self.document.write(toFile: dir + "/page.html", atomically: false, encoding: .utf8)
        let spare = try Self.startSpare(runtime: runtime)
        defer { Self.stop(spare) }
        let r = try swiftprint(["convert", "--verbose", dir + "/page.html", "-o", dir + "/out.pdf"],
                               env: ["XDG_RUNTIME_DIR": runtime, "SWIFTPRINT_MARKUP_SPARE": "0"])
        #expect(r.status == 0 && r.stderr.contains("started the markup renderer") && !r.stderr.contains("spare"), "\(r.stderr)")
        #expect(spare.isRunning)
        // A spare not taken stops on SIGTERM (as systemd stops it), though the test runner
        // starts it from a thread that blocks that signal.
        #expect(Self.stop(spare), "the spare did not stop on SIGTERM")
    }

    /// A spare of another build of swiftprint-markup (an upgrade since it started) is not taken.
    @Test func aSpareOfAnotherBuildIsNotTaken() throws {
        let runtime = try temporaryDirectory(), dir = try temporaryDirectory()
        try Self.document.write(toFile: dir + "/page.html", atomically: false, encoding: .utf8)
        let other = dir + "/swiftprint-markup"
        try FileManager.default.copyItem(atPath: Self.helper, toPath: other)
        let spare = try Self.startSpare(runtime: runtime, executable: other)
        defer { Self.stop(spare) }
        let r = try swiftprint(["convert", "--verbose", dir + "/page.html", "-o", dir + "/out.pdf"], env: ["XDG_RUNTIME_DIR": runtime])
        #expect(r.status == 0 && r.stderr.contains("started the markup renderer") && !r.stderr.contains("using a spare"), "\(r.stderr)")
        #expect(spare.isRunning)
    }

    /// `--idle SECONDS`: a spare nobody takes stops after that long, and leaves no socket.
    @Test func anIdleSpareStops() throws {
        let runtime = try temporaryDirectory()
        let spare = try Self.startSpare(runtime: runtime, arguments: ["--spare", "--idle", "1"])
        defer { Self.stop(spare) }
        #expect(Self.waitForExit(spare, seconds: 10) && spare.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: runtime + "/swiftprint/markup-spare.socket"))
    }

    /// Two spares for one folder: the second sees the first ready and stops at once.
    @Test func oneSparePerFolder() throws {
        let runtime = try temporaryDirectory()
        let first = try Self.startSpare(runtime: runtime)
        defer { Self.stop(first) }
        let second = Process()
        second.executableURL = URL(fileURLWithPath: Self.helper)
        second.arguments = ["--spare"]
        second.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        second.standardOutput = FileHandle.nullDevice
        second.standardError = FileHandle.nullDevice
        try second.run()
        #expect(Self.waitForExit(second, seconds: 10) && second.terminationStatus == 0)
        #expect(first.isRunning)
    }
}
