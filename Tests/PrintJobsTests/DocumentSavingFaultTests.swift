import Foundation
import TestSupport
import Testing

/// A note saved by `notes-example` when saving goes wrong: the process killed mid-write, the
/// disk full. The note's previous version stays whole.
@Suite(.timeLimit(.minutes(5)))
struct DocumentSavingFaultTests {
    static let notes = Tool.besideTests("notes-example")

    /// The save stops at its documented pause point (half the bytes written to the temporary
    /// file) and is killed there.
    @Test func aSaveKilledMidWriteLeavesTheOldFile() throws {
        let dir = try temporaryDirectory()
        let note = dir + "/note.txt"
        try Data("the old note".utf8).write(to: URL(fileURLWithPath: note))
        let marker = dir + "/paused"
        #expect(mkfifo(marker, 0o600) == 0)
        let saving = Process()
        saving.executableURL = URL(fileURLWithPath: Self.notes)
        saving.arguments = ["save", note, "200000"]
        saving.environment = ProcessInfo.processInfo.environment.merging(["SWIFTPRINT_DOCUMENT_SAVE_PAUSE": marker]) { $1 }
        try saving.run()
        // Opening the FIFO waits for the save to reach the pause point and name its temporary file.
        let temporary = String(decoding: try #require(FileHandle(forReadingAtPath: marker)).readDataToEndOfFile(), as: UTF8.self)
        kill(saving.processIdentifier, SIGKILL)
        saving.waitUntilExit()
        #expect(saving.terminationReason == .uncaughtSignal)
        #expect(try String(contentsOfFile: note, encoding: .utf8) == "the old note")
        // It was killed mid-write: the temporary file holds half the new note.
        let written = try FileManager.default.attributesOfItem(atPath: temporary)[.size] as? Int
        #expect(written == 100_000, "\(temporary)")
    }

    /// A disk too small for the new note (a 64 kB tmpfs in a mount namespace of the test's
    /// own): the save fails saying why, the document is marked `savingError` and keeps its
    /// contents, and the folder holds the old note alone.
    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs: needs root"))
    func aFullDiskIsASavingErrorAndKeepsTheContents() throws {
        let dir = try temporaryDirectory() + "/small"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let script = """
        mount -t tmpfs -o size=64k tmpfs "$0" || exit 90
        printf 'the old note' > "$0/note.txt"
        "$1" save "$0/note.txt" 200000; status=$?
        echo "--- file: $(cat "$0/note.txt")"
        echo "--- folder: $(ls -A "$0")"
        exit $status
        """
        let r = try Tool.run("unshare", ["--mount", "--propagation", "private", "sh", "-c", script, dir, Self.notes])
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.status == 74, "\(out) \(r.stderr)")
        #expect(out.contains("No space left on device") && out.contains("state: savingError"), "\(out)")
        #expect(out.contains("200000 bytes kept, unsaved: true"), "\(out)")
        #expect(out.contains("--- file: the old note") && out.contains("--- folder: note.txt\n"), "\(out)")
    }
}
