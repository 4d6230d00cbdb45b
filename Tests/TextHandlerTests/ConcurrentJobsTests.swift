import Foundation
import PrintGraphics
import SwiftPrint
import TestSupport
import Testing

/// Jobs in one process take turns with cairo's FreeType fonts and poppler, which are not safe for
/// two threads at once (`FontEngineLock` says why): two multilingual jobs side by side crashed in
/// FreeType about one run in thirty before.
@Suite struct ConcurrentJobsTests {
    /// Whether another thread took the font engines while page 1 was being drawn.
    final class Probe: PrintPageRenderer, @unchecked Sendable {
        private let state = NSLock()
        private var taken = false
        let otherThreadDone = DispatchSemaphore(value: 0)
        private(set) var takenWhileDrawing: Bool?

        var wasTaken: Bool { state.withLock { taken } }

        override func drawContentForPage(at pageIndex: Int, in contentRect: CGRect, context: GraphicsContext) {
            guard pageIndex == 0 else { return }
            Thread.detachNewThread { [self] in
                FontEngineLock.held { state.withLock { taken = true } }
                otherThreadDone.signal()
            }
            // Ample time for an untaken lock; a held one keeps the other thread out however long.
            Thread.sleep(forTimeInterval: 0.3)
            takenWhileDrawing = wasTaken
        }
    }

    @Test func aJobHoldsTheFontEnginesUntilItEnds() throws {
        let probe = Probe()
        _ = try convert(PrintInput(path: TextTests.multilingual), renderer: probe)
        #expect(probe.takenWhileDrawing == false)
        // Once the job has ended, the other thread gets its turn.
        #expect(probe.otherThreadDone.wait(timeout: .now() + 30) == .success)
        #expect(probe.wasTaken)
    }

    /// Multilingual jobs (a dozen faces: more than cairo keeps open) on four threads at once, with
    /// different fonts, each as it comes out alone.
    @Test func jobsSideBySideMatchJobsAlone() throws {
        let fonts = ["DejaVu Sans Mono 9", "DejaVu Sans Mono Bold 9", "Noto Sans Mono CJK JP 11", "DejaVu Serif 10"]
        @Sendable func text(_ font: String) throws -> String {
            try PDF.text(convert(PrintInput(path: TextTests.multilingual), options: ["font": font]).path)
        }
        let alone = try fonts.map(text)
        let results = NSLock()
        nonisolated(unsafe) var together: [String: String] = [:]
        DispatchQueue.concurrentPerform(iterations: fonts.count) { i in
            let extracted = (try? text(fonts[i])) ?? "failed"
            results.withLock { together[fonts[i]] = extracted }
        }
        for (font, expected) in zip(fonts, alone) { #expect(together[font] == expected, "\(font)") }
    }
}
