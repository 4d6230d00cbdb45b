import Foundation
import SwiftPrint
import TestSupport
import Testing

/// The library's async API against the test printers: a job awaited to its end, a job followed
/// through `statusUpdates` and cancelled, a waiting task cancelled without the job.
extension PrinterTests {
    /// The awaited job completes; the Print Center and the printer directory answer awaited too.
    @Test func anAwaitedJobReturnsItsFinalStatus() async throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        let controller = PrintInteractionController()
        controller.printFormatter = SimpleTextPrintFormatter(text: "awaited\u{0C}second page")
        var info = PrintInfo(jobName: "awaited job")
        info.printerID = "Office"
        controller.printInfo = info
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        let before = s.office.received.count

        let final = try await controller.print()
        #expect(final.state == .completed && controller.jobStatus == final)
        #expect(delegate.calls.first == "willStart" && delegate.calls.last == "didFinish", "\(delegate.calls)")
        let pdf = try #require(s.office.received.count == before + 1 ? s.office.received.last : nil)
        #expect(try PDF.text(pdf).contains("second page"))

        let jobs = try await PrintCenter.shared.jobs(on: "Office", includeFinished: true)
        #expect(jobs.first { $0.id == final.id }?.state == .completed)
        let names = try await PrinterDirectory.printers(capabilities: false).map(\.name)
        #expect(names.contains("Office") && names.contains("Lobby"), "\(names)")
    }

    /// On a stopped queue the job waits: its updates start pending, a waiting task cancelled
    /// stops waiting and leaves the job, `cancel()` ends it, and its updates end cancelled.
    @Test func aFollowedJobIsCancelledAndItsUpdatesSaySo() async throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        #expect(try Tool.run("cupsdisable", ["-h", s.cups.server, "Lobby"]).status == 0)
        defer { _ = try? Tool.run("cupsenable", ["-h", s.cups.server, "Lobby"]) }
        let controller = PrintInteractionController()
        controller.printingItems = [PrintInput(path: try threePages())]
        var info = PrintInfo(jobName: "cancelled job")
        info.printerID = "Lobby"
        controller.printInfo = info
        let job = try await controller.submit()
        #expect(controller.submittedJob == job)

        // A task waiting for the job, cancelled once it has heard the first status.
        let firstHeard = AsyncStream<JobStatus>.makeStream()
        let waiting = Task {
            for try await status in job.statusUpdates { firstHeard.continuation.yield(status) }
        }
        var heard = firstHeard.stream.makeAsyncIterator()
        let first = try #require(await heard.next())
        #expect(first.id == job.id && !first.state.isFinal, "\(first)")
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(try await PrintCenter.shared.status(ofJob: job.id).state.isFinal == false, "the job outlives the wait")

        try await job.cancel()
        var states: [JobStatus.State] = []
        for try await status in job.statusUpdates { states.append(status.state) }
        #expect(states.last == .cancelled, "\(states)")
    }

    /// A task cancelled before its job is sent converts it and sends nothing.
    @Test func aTaskCancelledBeforeSendingSendsNothing() async throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        let controller = PrintInteractionController()
        controller.printFormatter = SimpleTextPrintFormatter(text: "never sent")
        var info = PrintInfo(jobName: "never sent")
        info.printerID = "Office"
        controller.printInfo = info
        let before = try await PrintCenter.shared.jobs(on: "Office", includeFinished: true).count
        let attempt = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await controller.submit()
        }
        await #expect(throws: CancellationError.self) { try await attempt.value }
        #expect(controller.submittedJob == nil)
        #expect(try await PrintCenter.shared.jobs(on: "Office", includeFinished: true).count == before)
    }

    /// The completion handler hears a cancelled job as an error that says so.
    @Test func theCompletionHandlerHearsACancelledJob() async throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        #expect(try Tool.run("cupsdisable", ["-h", s.cups.server, "Lobby"]).status == 0)
        defer { _ = try? Tool.run("cupsenable", ["-h", s.cups.server, "Lobby"]) }
        let controller = PrintInteractionController()
        controller.printFormatter = SimpleTextPrintFormatter(text: "never printed")
        var info = PrintInfo(jobName: "handler job")
        info.printerID = "Lobby"
        controller.printInfo = info
        let statuses = StatusStream()
        controller.delegate = statuses
        let heard = AsyncStream<(Bool, PrintError?)>.makeStream()
        controller.print { completed, error in heard.continuation.yield((completed, error)) }
        // Once the controller hears its job's first status, the job is cancelled on the server.
        var updates = statuses.stream.makeAsyncIterator()
        let first = try #require(await updates.next())
        #expect(!first.state.isFinal, "\(first)")
        try await #require(controller.submittedJob).cancel()
        var results = heard.stream.makeAsyncIterator()
        let result = try #require(await results.next())
        #expect(!result.0 && result.1?.code == .cancelled, "\(String(describing: result.1))")
    }
}

/// A delegate that passes on each status the controller hears.
final class StatusStream: PrintInteractionControllerDelegate, Sendable {
    let stream: AsyncStream<JobStatus>
    private let continuation: AsyncStream<JobStatus>.Continuation
    init() { (stream, continuation) = AsyncStream<JobStatus>.makeStream() }
    func printInteractionController(_ controller: PrintInteractionController, jobDidChange status: JobStatus) {
        continuation.yield(status)
    }
}

extension PrinterTests {
    /// With a CUPS server that has printers, printing is available.
    @Test func printingIsAvailableWhereTheServerHasPrinters() throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        #expect(PrintInteractionController.isPrintingAvailable)
    }

    /// libcups reads its server once per thread and keeps it; a program that changes
    /// CUPS_SERVER still reaches the new server from a thread that asked another one before
    /// (here one where nothing listens, the discard port).
    @Test func aChangedCUPSServerIsFollowedOnAThreadThatAskedAnotherOne() throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", "127.0.0.1:9", 1)
        #expect(!PrintInteractionController.isPrintingAvailable)
        #expect(CUPSServer.name == "127.0.0.1")
        setenv("CUPS_SERVER", s.cups.server, 1)
        #expect(PrintInteractionController.isPrintingAvailable)
        #expect(try PrinterDirectory.printers(capabilities: false).map(\.name).contains("Office"))
    }
}
