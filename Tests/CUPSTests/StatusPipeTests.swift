import Foundation
import Testing
import TestSupport

/// cupsd handles a filter's exit before the lines still waiting in its status pipe, and once it
/// has noted "Filter failed" at the exit a later ERROR line never reaches `lpstat -l`; so the
/// filter (and the backends, through the same `CUPSMessages.exitWhenRead`) leaves only once its
/// last line has been read. Seen in CI before: a truncated PDF's job said only "Filter failed".
struct StatusPipeTests {
    @Test func aFailingFilterWaitsUntilItsReasonIsRead() throws {
        let filter = URL(fileURLWithPath: Tool.swiftprint).deletingLastPathComponent().appendingPathComponent("swiftprint-filter").path
        let missing = try temporaryDirectory() + "/gone.pdf"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: filter)
        p.arguments = ["7", "someone", "gone", "1", "", missing]
        p.environment = ["PATH": "/usr/bin:/bin", "CONTENT_TYPE": "application/pdf"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Nobody reads its status pipe yet, as cupsd busy elsewhere: it has failed, and waits.
        Thread.sleep(forTimeInterval: 0.6)
        #expect(p.isRunning, "the filter left with its reason unread")
        let read = Date()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(Date().timeIntervalSince(read) < 1, "it left once its line was read")
        #expect(p.terminationStatus != 0)
        #expect(said.contains("ERROR: ") && said.contains("cannot open the file"), "\(said)")
    }
}
