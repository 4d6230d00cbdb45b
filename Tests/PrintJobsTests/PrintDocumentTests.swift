import CXattr
import Foundation
import SwiftPrint
import TestSupport
import Testing

/// A plain-text note: PrintDocument's simplest subclass.
@MainActor final class Note: PrintDocument {
    var text = ""
    override func contents(forType typeName: String) throws -> Data { Data(text.utf8) }
    override func load(fromContents contents: Data, ofType typeName: String?) throws { text = String(decoding: contents, as: UTF8.self) }
    override var printFormatter: PrintFormatter? { SimpleTextPrintFormatter(text: text) }
}

/// The first state of `document` that `condition` accepts, awaited (never slept for), or a
/// failure after `timeout`.
///
/// Both waits run on the main actor: the cooperative pool's few threads may all be held for
/// minutes by the suite's synchronous tests (a CUPS test waiting for a printer), and a wait
/// queued behind them would outlast the test's time limit.
@MainActor func state(of document: PrintDocument, timeout: Duration = .seconds(20),
                      where condition: @escaping @Sendable (PrintDocument.State) -> Bool) async throws -> PrintDocument.State {
    let states = document.documentStates
    let waiting = Task { @MainActor () -> PrintDocument.State? in
        for await s in states where condition(s) { return s }
        return nil
    }
    let timer = Task { @MainActor in
        try await Task.sleep(for: timeout)
        waiting.cancel()
    }
    defer { timer.cancel() }
    let found = await waiting.value
    return try #require(found, "no such state within \(timeout)")
}

@MainActor @Suite(.timeLimit(.minutes(5))) struct PrintDocumentTests {
    func file(_ text: String) throws -> URL {
        let url = URL(fileURLWithPath: try temporaryDirectory() + "/note.txt")
        try Data(text.utf8).write(to: url)
        return url
    }

    func attribute(_ name: String, of path: String) -> String? {
        var value = [UInt8](repeating: 0, count: 256)
        let n = getxattr(path, name, &value, 256)
        return n < 0 ? nil : String(decoding: value[..<n], as: UTF8.self)
    }

    @Test func openEditSaveRevertAndClose() async throws {
        let url = try file("first")
        chmod(url.path, 0o640)
        #expect(setxattr(url.path, "user.swiftprint.test", "kept", 4, 0) == 0)
        let note = Note(fileURL: url)
        #expect(note.documentState == .closed)
        #expect(await note.open())
        #expect(note.text == "first" && note.documentState == .normal && note.fileModificationDate != nil)

        note.text = "second"
        note.updateChangeCount(.done)
        #expect(note.hasUnsavedChanges)
        #expect(await note.save(to: url, for: .forOverwriting))
        #expect(!note.hasUnsavedChanges)
        #expect(try String(contentsOf: url, encoding: .utf8) == "second")
        var info = stat()
        stat(url.path, &info)
        #expect(info.st_mode & 0o777 == 0o640, "permissions kept")
        #expect(attribute("user.swiftprint.test", of: url.path) == "kept", "extended attributes kept")
        // Nothing of the save is left beside the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["note.txt"])

        // Creating over an existing file fails and says why; the file is untouched.
        #expect(await note.save(to: url, for: .forCreating) == false)
        #expect(note.documentState.contains(.savingError))
        #expect("\(note.lastError!)".contains("File exists"))

        note.text = "unsaved"
        note.updateChangeCount(.done)
        #expect(await note.revert(toContentsOf: url))
        #expect(note.text == "second" && !note.hasUnsavedChanges && note.documentState == .normal)

        note.text = "saved on close"
        note.updateChangeCount(.done)
        #expect(await note.close())
        #expect(note.documentState == .closed)
        #expect(try String(contentsOf: url, encoding: .utf8) == "saved on close")
    }

    /// Changes are saved `autosaveDelay` after the last one, on the injected clock.
    @Test func changesSaveThemselvesAfterTheDelay() async throws {
        let url = try file("draft")
        let clock = ManualClock()
        let note = Note(fileURL: url, clock: clock)
        note.autosaveDelay = .seconds(5)
        #expect(await note.open())
        var sleeps = clock.sleepStarted.makeAsyncIterator()

        note.text = "edited once"
        note.updateChangeCount(.done)
        _ = await sleeps.next()
        clock.advance(by: .seconds(3))
        // A second change starts the delay again: 3 s after it nothing is saved yet.
        note.text = "edited twice"
        note.updateChangeCount(.done)
        _ = await sleeps.next()
        clock.advance(by: .seconds(3))
        #expect(try String(contentsOf: url, encoding: .utf8) == "draft")
        clock.advance(by: .seconds(2))
        await note.scheduledAutosave?.value
        #expect(try String(contentsOf: url, encoding: .utf8) == "edited twice")
        #expect(!note.hasUnsavedChanges)
        _ = await note.close()
    }

    /// Another process's change, in place or renamed over the file, puts the document in
    /// conflict; its own saves never do; each version can be kept.
    @Test func someoneElsesChangeIsAConflict() async throws {
        let url = try file("mine 0")
        let note = Note(fileURL: url)
        #expect(await note.open())
        let states = note.documentStates
        let seen = Task {
            var all: [PrintDocument.State] = []
            for await s in states {
                all.append(s)
                if s.contains(.closed) { break }
            }
            return all
        }

        for i in 1...3 {
            note.text = "mine \(i)"
            note.updateChangeCount(.done)
            #expect(await note.save(to: url, for: .forOverwriting))
        }
        // Every event of those saves handled (a chmod that changes nothing is handled after
        // them): none made a conflict.
        var handled = note.fileEventsHandled.stream.makeAsyncIterator()
        chmod(url.path, 0o644)
        while let events = await handled.next(), events & UInt32(IN_ATTRIB) == 0 {}
        #expect(note.documentState == .normal, "the document's own saves are not a conflict")

        // In place, as `echo > file` writes.
        let inPlace = try FileHandle(forWritingTo: url)
        try inPlace.truncate(atOffset: 0)
        try inPlace.write(contentsOf: Data("theirs, in place".utf8))
        try inPlace.close()
        _ = try await state(of: note) { $0.contains(.inConflict) }
        #expect(String(decoding: try await note.contentsOnDisk(), as: UTF8.self) == "theirs, in place")
        #expect(note.text == "mine 3", "the document keeps its own version")
        #expect(await note.resolveConflict(keeping: .current))
        #expect(note.documentState == .normal)
        #expect(try String(contentsOf: url, encoding: .utf8) == "mine 3")

        // Renamed over it, as editors save.
        let other = url.deletingLastPathComponent().appendingPathComponent("other.tmp")
        try Data("theirs, renamed".utf8).write(to: other)
        #expect(rename(other.path, url.path) == 0)
        _ = try await state(of: note) { $0.contains(.inConflict) }
        #expect(await note.resolveConflict(keeping: .onDisk))
        #expect(note.text == "theirs, renamed" && note.documentState == .normal)

        _ = await note.close()
        let all = await seen.value
        #expect(all == [.normal, .inConflict, .normal, .inConflict, .normal, .closed], "\(all)")
    }

    /// Saves asked for together run one after the other, and leave nothing unsaved; a new file
    /// gets the umask's permissions; a document reached through a link is saved where it points.
    @Test func savesTakeTurnsAndKeepLinksAndTheUmask() async throws {
        let url = try file("linked")
        let link = url.deletingLastPathComponent().appendingPathComponent("link.txt")
        #expect(symlink(url.path, link.path) == 0)
        let note = Note(fileURL: link)
        #expect(await note.open())
        note.text = "saved twice"
        note.updateChangeCount(.done)
        async let first = note.save(to: link, for: .forOverwriting)
        async let second = note.save(to: link, for: .forOverwriting)
        let (a, b) = await (first, second)
        #expect(a && b)
        #expect(!note.hasUnsavedChanges)
        var info = stat()
        #expect(lstat(link.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link stays a link")
        #expect(try String(contentsOf: url, encoding: .utf8) == "saved twice")

        let created = url.deletingLastPathComponent().appendingPathComponent("new.txt")
        #expect(await note.save(to: created, for: .forCreating))
        let mask = umask(0); umask(mask)
        #expect(stat(created.path, &info) == 0 && info.st_mode & 0o777 == 0o666 & ~mask)
        _ = await note.close()
    }

    /// Opening again after a conflict reads the file afresh: normal, nothing unsaved.
    @Test func reopeningEndsAConflict() async throws {
        let url = try file("mine")
        let note = Note(fileURL: url)
        #expect(await note.open())
        note.text = "edited"
        note.updateChangeCount(.done)
        try Data("theirs".utf8).write(to: url)
        _ = try await state(of: note) { $0.contains(.inConflict) }
        #expect(await note.close() == false, "closing in conflict drops the unsaved edit, and says so")
        #expect(await note.open())
        #expect(note.documentState == .normal && !note.hasUnsavedChanges && note.text == "theirs")
        _ = await note.close()
    }

    /// A listener's stream ends when its document goes away, not before.
    @Test func stateStreamsEndWithTheirDocument() async throws {
        var note: Note? = Note(fileURL: try file("short-lived"))
        #expect(await note!.open())
        let states = note!.documentStates
        let heard = Task { @MainActor in
            var all: [PrintDocument.State] = []
            for await s in states { all.append(s) }
            return all
        }
        _ = await note!.close()
        weak let gone = note
        note = nil
        #expect(gone == nil, "nothing else holds the document")
        let timer = Task { @MainActor () -> Bool in
            // Long: in the full run (two cores, blocking CUPS suites beside it) this test once took
            // 213 s and its 20 s limit fired before the stream's end arrived; only a stream that never ends should
            // fail it.
            do { try await Task.sleep(for: .seconds(300)) } catch { return false }
            heard.cancel()
            return true
        }
        let all = await heard.value
        timer.cancel()
        #expect(await timer.value == false, "the stream ended before the time limit")
        #expect(all.first == .normal && all.last == .closed, "\(all)")
    }

    /// A file that cannot be read: open says no and why, naming the file.
    @Test func aMissingFileDoesNotOpen() async throws {
        let url = URL(fileURLWithPath: try temporaryDirectory() + "/missing.txt")
        let note = Note(fileURL: url)
        #expect(await note.open() == false)
        #expect(note.documentState == .closed)
        let error = try #require(note.lastError as? PrintError)
        #expect(error.path == url.path && error.code == .inputUnreadable, "\(error)")
    }
}
