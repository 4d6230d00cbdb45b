import Foundation
import Observation
import SwiftPrint
import TestSupport
import Testing

/// Printing from a program: the receipt example (completion handler) and the library's
/// `PrintInteractionController` against the test printers.
extension PrinterTests {
    @Test func theReceiptExamplePrintsAndHearsBack() throws {
        let s = try Setup.shared()
        let before = s.lobby.received.count
        let r = try Tool.run(Tool.besideTests("receipt-example"), ["Lobby"], environment: ["CUPS_SERVER": s.cups.server])
        #expect(r.status == 0, "\(r.text) \(r.stderr)")
        #expect(r.text.contains("order 1042: printed on Lobby"))
        #expect(s.lobby.received.count == before + 1)
        #expect(try PDF.text(try #require(s.lobby.received.last)).contains("TOTAL"))
        // On the receipt printer the roll is cut below the last line: 80 mm wide, as long as
        // the example's 9 lines and a blank one at 12 points (no top or bottom margin).
        // The printer takes raster only: CUPS's filters made it from the PDF sent.
        let keptBefore = s.till.kept.count
        let roll = try Tool.run(Tool.besideTests("receipt-example"), ["Till"], environment: ["CUPS_SERVER": s.cups.server])
        #expect(roll.status == 0 && roll.text.contains("order 1042: printed on Till"), "\(roll.text) \(roll.stderr)")
        let raster = try #require(s.till.kept.count == keptBefore + 1 ? s.till.kept.last : nil, "\(s.till.kept)")
        let back = try temporaryDirectory() + "/receipt.pdf"
        #expect(try Tool.run(Tool.swiftprint, ["convert", raster, "-o", back]).status == 0)
        let size = try #require(try PDF.pageSizes(back).first)
        #expect(abs(size.width - 80 * 72 / 25.4) < 1 && abs(size.height - 120) < 1, "\(size)")
        let pages = try PDF.pageSizes(back)
        #expect(pages.count == 1, "\(pages)")
        // The job asked for that size, which the printer got in its media-col (in hundredths of
        // a millimetre; CUPS rounds custom sizes down to whole points on the way).
        let mediaCol = s.till.attributes(of: raster)["MEDIA_COL"] ?? ""
        let asked = try #require(mediaCol.firstMatch(of: /x-dimension=(\d+) y-dimension=(\d+)/), "\(mediaCol)")
        #expect(abs(Int(asked.1)! - 8000) <= 36 && abs(Int(asked.2)! - 4233) <= 36, "\(mediaCol)")

        // A printer that does not exist: the handler hears why.
        let missing = try Tool.run(Tool.besideTests("receipt-example"), ["Cellar"], environment: ["CUPS_SERVER": s.cups.server])
        #expect(missing.status == 75 && missing.text.contains("not printed: no printer called Cellar"), "\(missing.text)")
    }
}

/// Records what a PrintInteractionController tells its delegate.
final class RecordingDelegate: PrintInteractionControllerDelegate, @unchecked Sendable {
    var calls: [String] = []
    var offered: [PrintPaper] = []
    let lock = NSLock()
    func note(_ s: String) { lock.withLock { calls.append(s) } }

    func printInteractionController(_ controller: PrintInteractionController, choosePaper papers: [PrintPaper]) -> PrintPaper? {
        note("choosePaper")
        offered = papers
        return PrintPaper.best(for: MediaSize.a4.size, from: papers)
    }
    func printInteractionControllerWillStartJob(_ controller: PrintInteractionController) { note("willStart") }
    func printInteractionController(_ controller: PrintInteractionController, jobDidChange status: JobStatus) { note("changed:\(status.state.rawValue)") }
    func printInteractionControllerDidFinishJob(_ controller: PrintInteractionController) { note("didFinish") }
}

extension PrinterTests {
    @Test func theLibraryPrintsWithADelegateAndACompletion() throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        let controller = PrintInteractionController()
        controller.printingItems = [PrintInput(path: try threePages())]
        controller.printFormatter = SimpleTextPrintFormatter(text: "one formatter\u{0C}second page")
        #expect(controller.printingItems == nil, "setting the formatter clears the items")
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        var info = PrintInfo(jobName: "library job")
        info.printerID = "Office"
        controller.printInfo = info
        let before = s.office.received.count
        // The job's state is observable, as UIDocument's documentState is.
        nonisolated(unsafe) var observed = false
        withObservationTracking({ _ = controller.jobStatus }, onChange: { observed = true })
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Bool, PrintError?) = (false, nil)
        controller.print { completed, error in result = (completed, error); done.signal() }
        #expect(done.wait(timeout: .now() + 60 * Sanitizer.patience) == .success)
        #expect(result.0 && result.1 == nil, "\(String(describing: result.1))")
        #expect(delegate.calls.first == "willStart" && delegate.calls.last == "didFinish", "\(delegate.calls)")
        #expect(delegate.calls.contains("choosePaper") && delegate.offered.contains { $0.media.pwgName == "iso_a4_210x297mm" })
        #expect(delegate.calls.contains("changed:completed"))
        #expect(controller.jobStatus?.state == .completed && controller.submittedJob?.printer == "Office")
        #expect(observed, "observers hear of the job's first status")
        let pdf = try #require(s.office.received.count == before + 1 ? s.office.received.last : nil)
        #expect(try PDF.text(pdf).contains("second page"))
        #expect(try PDF.pageSizes(pdf).allSatisfy { abs($0.width - 595.28) < 1 }, "the delegate's A4")
    }

    @Test func nothingToPrintIsAnError() throws {
        let controller = PrintInteractionController()
        #expect { try controller.write(to: try temporaryDirectory() + "/x.pdf") } throws: { ($0 as? PrintError)?.code == .noContent }
    }
}

extension PrinterTests {
    /// The notes example's whole story: opened, edited and autosaved, a change by another
    /// program met as a conflict and resolved, an edit reverted, printed to Office while its
    /// job is followed to completion, and a second job to the stopped Lobby cancelled.
    @Test func theNotesExampleEditsSavesResolvesAndPrints() throws {
        let s = try Setup.shared()
        #expect(try Tool.run("cupsdisable", ["-h", s.cups.server, "Lobby"]).status == 0)
        defer { _ = try? Tool.run("cupsenable", ["-h", s.cups.server, "Lobby"]) }
        let note = try temporaryDirectory() + "/shopping.txt"
        try Data("Shopping\nBread.".utf8).write(to: URL(fileURLWithPath: note))
        let before = s.office.received.count
        let r = try Tool.run(Tool.besideTests("notes-example"), ["demo", note, "Office", "Lobby"], environment: ["CUPS_SERVER": s.cups.server])
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.status == 0, "\(out) \(r.stderr)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first == "opened: Shopping")
        #expect(lines.contains("autosaved: 25 bytes, unsaved changes: false"), "\(lines)")
        #expect(lines.contains("conflict: on disk \"Written by another program.\""), "\(lines)")
        #expect(lines.contains("resolved: kept this version (normal)"), "\(lines)")
        #expect(lines.contains("reverted: ends \"Buy milk.\""), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("job ") && $0.hasSuffix(": completed, 1 of 1 pages") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("second job ") && $0.hasSuffix(": cancelled") }, "\(lines)")
        #expect(lines.last == "closed")
        #expect(try String(contentsOfFile: note, encoding: .utf8) == "Shopping\nBread.\nBuy milk.")
        let pdf = try #require(s.office.received.count == before + 1 ? s.office.received.last : nil)
        #expect(try PDF.text(pdf).contains("Buy milk."))
    }
}
