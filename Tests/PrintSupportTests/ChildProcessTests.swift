import Foundation
import Synchronization
import SwiftPrint
import Testing

/// Helper programs run through the one runner: what they write, how they end, and what bounds
/// them (the clock, processor time, memory, their process group, their descriptors).
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

    @Test func aGrandchildHoldingThePipesIsNotWaitedForLongAndIsStopped() throws {
        let (r, seconds) = try elapsed { try ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo $!"]) }
        let grandchild = try #require(Int32(String(decoding: r.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(r.status == 0)
        #expect(seconds < 10)
        #expect(Self.isGone(grandchild), "the converter's child still runs")
    }

    /// At the clock the whole process group goes, grandchildren included (a converter that
    /// starts another program and waits for it).
    @Test func theClockStopsTheChildsWholeGroup() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ChildProcess.run("/bin/sh", ["-c", "sleep 300 & echo $! > \(dir)/pid; wait"], limits: .init(seconds: 0.5))
        #expect(r.timedOut && r.crossedLimit == .seconds(0.5))
        let grandchild = try #require(Int32(String(contentsOfFile: dir + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Self.isGone(grandchild), "the grandchild outlived the clock")
    }

    /// A child that ends past its time, between two looks at the clock (here while its output
    /// was awaited), is past its time all the same.
    @Test func aChildEndingPastItsTimeBetweenLooksIsPastIt() throws {
        let r = try ChildProcess.run("/bin/sh", ["-c", "sleep 0.05"], limits: .init(seconds: 0.001))
        #expect(r.timedOut && r.crossedLimit == .seconds(0.001), "\(r.status)")
    }

    @Test func processorTimeIsBounded() throws {
        let (r, seconds) = try elapsed { try ChildProcess.run("/bin/sh", ["-c", "while :; do :; done"], limits: .init(seconds: 60, cpuSeconds: 1)) }
        #expect(r.signalled && r.crossedLimit == .cpuSeconds(1), "\(r.status) \(r.processorSeconds) \(String(describing: r.crossedLimit)) \(r.limits.cpuSeconds ?? -1)")
        #expect(seconds < 20)
    }

    /// RLIMIT_DATA: an allocation past the limit fails in the child, which says so, and the
    /// result names the limit.
    @Test func memoryIsBounded() throws {
        let big = "x=$(head -c 300000000 /dev/zero | tr '\\0' a); echo ${#x}"
        let r = try ChildProcess.run("/bin/bash", ["-c", big], limits: .init(seconds: 60, memoryBytes: 64 << 20))
        #expect(r.status != 0 && r.crossedLimit == .memoryBytes(64 << 20), "\(r.status) \(r.lastErrorLine)")
        let unbounded = try ChildProcess.run("/bin/bash", ["-c", "x=$(head -c 3000000 /dev/zero | tr '\\0' a); echo ${#x}"], limits: .init(memoryBytes: 64 << 20))
        #expect(unbounded.status == 0 && unbounded.crossedLimit == nil, "\(unbounded.lastErrorLine)")
    }

    /// A child has only its standard three descriptors (a CUPS filter's back and side
    /// channels, our open files stay ours) and a process group of its own.
    @Test func aChildHasOnlyItsStandardDescriptorsAndItsOwnGroup() throws {
        let fd = open("/etc/hostname", O_RDONLY)
        defer { close(fd) }
        let r = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd; echo group $(cut -d' ' -f5 /proc/$$/stat) $$"])
        let lines = String(decoding: r.output, as: UTF8.self).split(separator: "\n")
        #expect(Set(lines.dropLast()) == ["0", "1", "2"], "\(lines)")
        let group = lines.last?.split(separator: " ") ?? []
        #expect(group.count == 3 && group[1] == group[2], "\(lines)")
    }

    @Test func aLongLivedChildTalksOverPipesAndStopsWithItsGroup() throws {
        let child = try ChildProcess.start("/bin/sh", ["-c", "sleep 300 & echo $!; while read line; do echo \"got $line\"; done"])
        defer { child.closePipes() }
        var reader = LineReader(fd: child.output)
        let grandchild = try #require(reader.next().flatMap { Int32($0) })
        try child.send(Data("hello\n".utf8))
        #expect(reader.next() == "got hello")
        #expect(child.isRunning)
        child.stop()
        #expect(!child.isRunning && Self.isGone(grandchild))
        // Writing to it now fails; it does not kill us with SIGPIPE.
        #expect(throws: PrintError.self) { try child.send(Data("again\n".utf8)) }
    }

    /// What a group has held at most is seen after the moment has passed (a renderer that
    /// answers between two looks at its memory), and is started afresh for the next request.
    @Test func aGroupsPeakMemoryOutlivesThePeak() throws {
        // 100 MB held and given back, then the child waits for a line.
        let script = #"my $x = "a"; $x x= 100_000_000; undef $x; $| = 1; print "freed\n"; <STDIN>; print "done\n"; <STDIN>;"#
        let child = try ChildProcess.start("/usr/bin/perl", ["-e", script])
        defer { child.stop(); child.closePipes() }
        var reader = LineReader(fd: child.output)
        #expect(reader.next() == "freed")
        let peak = ChildProcess.peakResidentBytes(ofGroup: child.pid)
        #expect(peak > 100_000_000, "\(peak)")
        ChildProcess.resetPeakResidentBytes(ofGroup: child.pid)
        try child.send(Data("\n".utf8))
        #expect(reader.next() == "done")
        let after = ChildProcess.peakResidentBytes(ofGroup: child.pid)
        #expect(after > 0 && after < 50_000_000, "\(after)")
    }

    /// A backend that runs another (swiftprint's relay, CUPS's ipp backend) passes on the
    /// descriptors asked for (cupsd's back and side channels, 3 and 4) and still no others; a
    /// child started to be killed with its starter ends when the thread that started it does,
    /// so that it never goes on sending a job alone.
    @Test func aChildKeepsTheDescriptorsAskedForAndCanEndWithItsStarter() throws {
        // A pipe of its own, at whatever descriptor it gets (the suite's tests run at once: a
        // fixed number could be another test's), close-on-exec as every descriptor of ours is.
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let channel = fds[1]
        _ = fcntl(channel, F_SETFD, FD_CLOEXEC)
        defer { close(fds[0]) }
        // bash: dash takes descriptors up to 9 only.
        let script = "{ echo through >&\(channel); } 2>/dev/null && echo passed || echo refused"
        let kept = try ChildProcess.start("/bin/bash", ["-c", script], input: false, keepsDescriptorsBelow: channel + 1)
        var keptOutput = LineReader(fd: kept.output)
        #expect(keptOutput.next() == "passed")
        kept.stop(); kept.closePipes()
        let closed = try ChildProcess.start("/bin/bash", ["-c", script], input: false)
        var closedOutput = LineReader(fd: closed.output)
        #expect(closedOutput.next() == "refused")
        closed.stop(); closed.closePipes()
        close(channel)
        var channelReader = LineReader(fd: fds[0])
        #expect(channelReader.next() == "through")
        #expect(channelReader.next() == nil, "only the child asked to keep it wrote to it")

        let started = Mutex<ChildProcess.Running?>(nil)
        let thread = Thread {
            started.withLock { $0 = try? ChildProcess.start("/bin/sleep", ["300"], input: false, output: .descriptor(2), killedWithStarter: true) }
        }
        thread.start()
        var child: ChildProcess.Running?
        for _ in 0..<100 where child == nil { usleep(20_000); child = started.withLock { $0 } }
        let orphan = try #require(child)
        defer { orphan.stop(); orphan.closePipes() }
        #expect(Self.isGone(orphan.pid), "the child ended with the thread that started it")
    }

    /// Whether `pid` has ended (gone, or a zombie its new parent has not reaped yet), within 5 s.
    static func isGone(_ pid: Int32) -> Bool {
        for _ in 0..<50 {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z" { return true }
            usleep(100_000)
        }
        return false
    }

    /// Lines from a descriptor, for the test.
    struct LineReader {
        let fd: Int32
        var pending = [UInt8]()
        mutating func next() -> String? {
            while true {
                if let newline = pending.firstIndex(of: 10) {
                    defer { pending.removeFirst(newline + 1) }
                    return String(decoding: pending[..<newline], as: UTF8.self)
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &buffer, buffer.count)
                guard n > 0 else { return nil }
                pending += buffer[..<n]
            }
        }
    }

    @Test func aProgramThatIsNotThereCannotStart() {
        #expect(throws: PrintError.self) { try ChildProcess.run("/nonexistent/helper", []) }
    }
}
