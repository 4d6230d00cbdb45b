import Foundation
import SwiftPrint
import Testing

/// Helper programs run through posix_spawn: what they write, how they end, and the clock.
struct ChildProcessTests {
    func elapsed(_ body: () throws -> ChildProcess.Result) rethrows -> (ChildProcess.Result, Double) {
        let start = Date()
        let result = try body()
        return (result, Date().timeIntervalSince(start))
    }

    @Test func bothOutputsAndTheExitStatusComeBack() throws {
        let r = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(r.status == 3 && !r.signalled && !r.timedOut)
        #expect(String(decoding: r.output, as: UTF8.self) == "out\n")
        #expect(r.lastErrorLine == "err")
    }

    @Test func aChattyChildNeverBlocksOnAFullPipe() throws {
        // 1 MB on each pipe, far beyond what a pipe holds.
        let r = try ChildProcess.run("/bin/sh", ["-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"], timeout: 30)
        #expect(r.status == 0 && !r.timedOut)
        #expect(r.output.count == 1_048_576 && r.errors.count == 1_048_576)
    }

    @Test func aSignalIsReportedAsOne() throws {
        let r = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(r.signalled && r.status == SIGTERM)
    }

    @Test func theClockKillsAChildThatHangs() throws {
        let (r, seconds) = try elapsed { try ChildProcess.run("/bin/sleep", ["30"], timeout: 0.5) }
        #expect(r.timedOut && r.signalled && r.status == SIGKILL)
        #expect(seconds < 5)
        // Even one that closed its pipes first.
        let (quiet, quietSeconds) = try elapsed { try ChildProcess.run("/bin/sh", ["-c", "exec >&- 2>&-; sleep 30"], timeout: 0.5) }
        #expect(quiet.timedOut && quietSeconds < 5)
    }

    @Test func aGrandchildHoldingThePipesIsNotWaitedForLong() throws {
        let (r, seconds) = try elapsed { try ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo started"]) }
        #expect(r.status == 0 && String(decoding: r.output, as: UTF8.self) == "started\n")
        #expect(seconds < 10)
    }

    @Test func aProgramThatIsNotThereCannotStart() {
        #expect(throws: PrintError.self) { try ChildProcess.run("/nonexistent/helper", []) }
    }
}
