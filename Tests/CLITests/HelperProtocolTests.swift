import Foundation
import ImageProtocol
import MapProtocol
import PrintHelpers
import SwiftPrint
import TestSupport
import Testing

/// The one helper protocol, spoken to the real helper programs: a request line in, a reply line
/// out — the answer, or the failure with its code and file.
@Suite struct HelperProtocolTests {
    static let built = URL(fileURLWithPath: Tool.swiftprint).deletingLastPathComponent()

    static func ask<Task: Codable & Sendable, Answer: Codable & Sendable>(
        _ helper: String, _ request: HelperRequest<Task>, answer: Answer.Type) throws -> (reply: HelperReply<Answer>, status: Int32) {
        let r = try Tool.run(built.appendingPathComponent(helper).path, [], stdin: HelperLine.encode(request))
        let reply = try JSONDecoder().decode(HelperReply<Answer>.self, from: r.stdout)
        return (reply, r.status)
    }

    /// Asks swiftprint-image to decode `input` into `output`.
    static func decode(_ input: String, into output: String) throws -> (reply: HelperReply<ImageResolutions>, status: Int32) {
        let request = HelperRequest(input: input, output: output, task: ImageDecodingTask(allGIFFrames: false, maxPixels: 1_000_000, maxImages: 100))
        return try ask("swiftprint-image", request, answer: ImageResolutions.self)
    }

    /// A reply longer than a socket holds at once, written to a connection that blocks no
    /// write (a shared or spare renderer's), reaches the reader whole: such a reply (a long
    /// document's text, for the page map) used to be cut off, and the run waited for the rest.
    @Test func aLongLineReachesASlowReaderWhole() throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        let line = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        let writer = fds[1]
        let written = Locked<Bool?>(nil)
        Thread.detachNewThread {
            let ok = HelperLine.write(line + Data("\n".utf8), to: writer)
            close(writer)
            written.withLock { $0 = ok }
        }
        var reader = DescriptorLineReader(fd: fds[0])
        var received: Data?
        while received == nil {
            usleep(1_000)  // a reader slower than the writer: the socket fills
            guard reader.readOnce(), !reader.ended else { break }
            received = reader.bufferedLine()
        }
        while written.withLock({ $0 }) == nil { usleep(1_000) }
        #expect(written.withLock { $0 } == true)
        #expect(received?.count == line.count)
    }

    @Test func theImageHelperAnswersWithEachPagesResolution() throws {
        let out = try temporaryDirectory() + "/poster.pdf"
        let (reply, status) = try Self.decode(examples + "/poster.svg", into: out)
        #expect(status == 0 && reply.failure == nil)
        #expect(reply.answer?.count == 1)
        #expect(try PDF.pageCount(out) == 1)
    }

    @Test func aFailureComesBackTypedNamingItsFile() throws {
        let (reply, status) = try Self.decode(examples + "/server.log", into: try temporaryDirectory() + "/never.pdf")
        #expect(status == 0 && reply.answer == nil)
        let error = try #require(reply.failure).error
        #expect(error.code == .unknownFormat && error.path == examples + "/server.log", "\(error)")
    }

    @Test func theMapHelperDrawsTheTasksAreaWithTheJobsMapSettings() throws {
        let out = try temporaryDirectory() + "/walk.pdf"
        var map = MapSettings()
        map.poster = MapSettings.PosterGrid(columns: 2, rows: 1)
        let request = HelperRequest(input: examples + "/walk.gpx", output: out,
                                    task: MapDrawingTask(width: 400, height: 600, margin: 20, map: map, limits: JobLimits(), localFiles: .documentFolder))
        let (reply, status) = try Self.ask("swiftprint-map", request, answer: NoAnswer.self)
        #expect(status == 0 && reply.failure == nil, "\(String(describing: reply.failure))")
        #expect(try PDF.pageCount(out) == 2, "a 2x1 poster is two sheets")
        for size in try PDF.pageSizes(out) { #expect(abs(size.width - 440) < 0.01 && abs(size.height - 640) < 0.01) }
    }

    @Test func aLineThatIsNoRequestIsAUsageError() throws {
        let r = try Tool.run(Self.built.appendingPathComponent("swiftprint-map").path, [], stdin: Data("hello\n".utf8))
        #expect(r.status == 64 && r.stdout.isEmpty, "\(r.stderr)")
    }
}
