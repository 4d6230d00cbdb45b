import Foundation
import Testing
import TestSupport

/// Every fuzz target's seeds, and every input a fuzzer ever found failing, replayed through
/// swiftprint-fuzz as the ordinary build makes it (no sanitizer, no libFuzzer): a fixed crash
/// stays fixed, and each seed still parses. Fuzz/Corpus/TARGET/seeds holds the seeds,
/// Fuzz/Corpus/TARGET/found the findings (FUZZING.md says how to add one).
@Suite struct FuzzReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus").path
    static let program = Tool.besideTests("swiftprint-fuzz")

    /// The targets, as the program lists them.
    static let targets: [String] = {
        guard let listed = try? Tool.run(program, ["list"]), listed.status == 0 else { return [] }
        return listed.text.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
    }()

    @Test func theProgramListsEveryTarget() throws {
        #expect(Self.targets.count >= 20, "swiftprint-fuzz list: \(Self.targets)")
        // Each target has its folder, and nothing in Fuzz/Corpus belongs to no target.
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(Self.targets))
    }

    @Test(arguments: targets)
    func seedsAndFindingsEndWithAPageOrAReason(target: String) throws {
        let seeds = "\(Self.corpus)/\(target)/seeds", found = "\(Self.corpus)/\(target)/found"
        let seedFiles = (try? FileManager.default.contentsOfDirectory(atPath: seeds)) ?? []
        #expect(!seedFiles.isEmpty, "\(target) has no seeds in \(seeds)")
        var folders = [seeds]
        if FileManager.default.fileExists(atPath: found) { folders.append(found) }
        // A hang is a finding too: the replay gets two minutes.
        let run = try Tool.run("timeout", ["120", Self.program, target] + folders, environment: ["SWIFT_BACKTRACE": "enable=no"])
        // The program names each input before it runs it: a crash's last line is the culprit.
        let last = run.stderr.split(separator: "\n").last(where: { $0.hasPrefix("\(target): ") }) ?? ""
        #expect(run.status == 0, "swiftprint-fuzz \(target) failed (status \(run.status)) on \(last):\n\(run.stderr.suffix(3000))")
        #expect(run.text.contains("\(target): "), "\(run.text)")
    }
}
