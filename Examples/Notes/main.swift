// A notes app's document code, as an iOS app writes it with UIDocument: a note opened, edited and
// saved by itself, a change by another program met as a conflict and resolved, an edit reverted,
// and the note printed while its job is followed to the end.
//
//   notes-example demo NOTE PRINTER [HELD-PRINTER]
//       the whole story; with HELD-PRINTER (a stopped queue), a second job is sent and cancelled
//   notes-example save NOTE BYTES
//       the note replaced by BYTES bytes of text and saved: exit 0, or 74 saying why when it
//       cannot be (the note's previous version stays whole either way)
import Foundation
import Observation
import SwiftPrint

/// The note: plain text.
final class Note: PrintDocument {
    var text = ""
    override func contents(forType typeName: String) throws -> Data { Data(text.utf8) }
    override func load(fromContents contents: Data, ofType typeName: String?) throws { text = String(decoding: contents, as: UTF8.self) }
    override var printFormatter: PrintFormatter? { SimpleTextPrintFormatter(text: text) }
}

/// Returns once the note has been written to its file again.
@MainActor func nextSave(of note: Note) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        withObservationTracking { _ = note.fileModificationDate } onChange: { done.resume() }
    }
}

/// Returns once the note is in conflict with its file.
@MainActor func conflict(of note: Note) async {
    for await state in note.documentStates where state.contains(.inConflict) { return }
}

func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("notes-example: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first, arguments.count >= 3 else {
    fail("usage: notes-example demo NOTE PRINTER [HELD-PRINTER] | save NOTE BYTES", 64)
}
let note = Note(fileURL: URL(fileURLWithPath: arguments[arguments.startIndex + 1]))
guard await note.open() else { fail("cannot open the note: \(note.lastError.map { "\($0)" } ?? "")", 66) }

switch command {
case "save":
    guard let count = Int(arguments[arguments.startIndex + 2]) else { fail("BYTES is a number", 64) }
    let line = "A line of the note, long enough to fill a page quickly.\n"
    note.text = String(repeating: line, count: count / line.utf8.count + 1).prefix(count).description
    note.updateChangeCount(.done)
    guard await note.save(to: note.fileURL, for: .forOverwriting) else {
        print("not saved: \(note.lastError.map { "\($0)" } ?? "") (state: \(note.documentState)); \(note.text.utf8.count) bytes kept, unsaved: \(note.hasUnsavedChanges)")
        exit(74)
    }
    print("saved \(note.text.utf8.count) bytes")

case "demo":
    let printer = arguments[arguments.startIndex + 2]
    let heldPrinter = arguments.count > 3 ? arguments[arguments.startIndex + 3] : nil
    print("opened: \(note.text.split(separator: "\n").first ?? "")")

    // An edit, saved by itself a moment later.
    note.autosaveDelay = .milliseconds(200)
    note.text += "\nBuy milk."
    note.updateChangeCount(.done)
    await nextSave(of: note)
    print("autosaved: \(note.text.utf8.count) bytes, unsaved changes: \(note.hasUnsavedChanges)")

    // Another program writes the file: the note is in conflict; this app keeps its own version.
    let other = Process()
    other.executableURL = URL(fileURLWithPath: "/bin/sh")
    other.arguments = ["-c", "printf 'Written by another program.' > \"$0\"", note.fileURL.path]
    try other.run()
    other.waitUntilExit()
    await conflict(of: note)
    let theirs = String(decoding: try await note.contentsOnDisk(), as: UTF8.self)
    print("conflict: on disk \"\(theirs)\"")
    guard await note.resolveConflict(keeping: .current) else { fail("cannot keep this version: \(note.lastError!)", 74) }
    print("resolved: kept this version (\(note.documentState))")

    // An edit taken back.
    note.text += "\nA mistake."
    note.updateChangeCount(.done)
    guard await note.revert(toContentsOf: note.fileURL) else { fail("cannot revert: \(note.lastError!)", 74) }
    print("reverted: ends \"\(note.text.split(separator: "\n").last ?? "")\"")

    // The note printed, its job followed to the end.
    let controller = PrintInteractionController()
    controller.printFormatter = note.printFormatter
    var info = PrintInfo(jobName: "Note")
    info.printerID = printer
    controller.printInfo = info
    let job = try await controller.submit()
    for try await status in job.statusUpdates {
        print("job \(job.id): \(status.state.rawValue), \(status.impressionsCompleted) of \(job.impressions) pages")
    }

    // A second job, to a stopped printer, cancelled before it prints.
    if let heldPrinter {
        info.printerID = heldPrinter
        info.jobName = "Note, again"
        controller.printInfo = info
        let second = try await controller.submit()
        try await second.cancel()
        var last: JobStatus?
        for try await status in second.statusUpdates { last = status }
        print("second job \(second.id): \(last?.state.rawValue ?? "unknown")")
    }
    _ = await note.close()
    print("closed")

default:
    fail("no command \(command)", 64)
}
