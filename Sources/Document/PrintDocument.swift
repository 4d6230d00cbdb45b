import Foundation
import Observation
import PageLayout
import PrintModel
import PrintSupport

/// A document saved in a file, UIDocument's model on Linux: subclass it, give it your contents
/// with `contents(forType:)` and take them back in `load(fromContents:ofType:)`.
///
/// - Reading and writing happen on a thread of their own; the document's own methods run on the
///   main actor, as UIDocument's do.
/// - Saving is safe: a temporary file beside the document, with its permissions and extended
///   attributes, flushed and renamed into place. The previous version is intact whatever stops
///   the save; a failed save sets `.savingError` and keeps the contents in memory.
/// - Changes are counted (`updateChangeCount`); changed contents are saved `autosaveDelay` after
///   the last change, on the clock given to `init` (tests give one they move by hand).
/// - While open, a change to the file by anyone else, written in place or renamed over it, puts
///   the document `.inConflict` (inotify). Its own saves never do. The two versions are the
///   document's contents and `contentsOnDisk()`; `resolveConflict(keeping:)` keeps one.
/// - `documentState` is observable (Observation) and `documentStates` delivers each change.
@MainActor
open class PrintDocument: Observable {
    /// UIDocument.State: no flags is normal.
    public struct State: OptionSet, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let normal: State = []
        public static let closed = State(rawValue: 1 << 0)
        public static let inConflict = State(rawValue: 1 << 1)
        public static let savingError = State(rawValue: 1 << 2)
        public static let editingDisabled = State(rawValue: 1 << 3)
        public static let progressAvailable = State(rawValue: 1 << 4)

        public var description: String {
            let names = [(State.closed, "closed"), (.inConflict, "inConflict"), (.savingError, "savingError"),
                         (.editingDisabled, "editingDisabled"), (.progressAvailable, "progressAvailable")]
            let set = names.filter { contains($0.0) }.map(\.1)
            return set.isEmpty ? "normal" : set.joined(separator: ", ")
        }
    }

    public enum SaveOperation: Sendable { case forCreating, forOverwriting }
    public enum ChangeKind: Sendable { case done, undone, redone, cleared }
    /// The two versions of a document in conflict.
    public enum Version: Sendable { case current, onDisk }

    public let fileURL: URL
    /// How long after the last change the document saves itself.
    public var autosaveDelay: Duration = .seconds(2)
    /// The file's modification date when the document last read or wrote it (observable: it
    /// changes with each save, autosaves included).
    public private(set) var fileModificationDate: Date? {
        get { registrar.access(self, keyPath: \.fileModificationDate); return modificationDate }
        set { registrar.withMutation(of: self, keyPath: \.fileModificationDate) { modificationDate = newValue } }
    }
    /// The last error a read or save met (also given to `handleError`).
    public private(set) var lastError: Error?

    public private(set) var documentState: State {
        get { registrar.access(self, keyPath: \.documentState); return state }
        set {
            guard newValue != state else { return }
            registrar.withMutation(of: self, keyPath: \.documentState) { state = newValue }
            for listener in stateListeners.values { listener.yield(newValue) }
        }
    }

    private var state: State = .closed
    private var modificationDate: Date?
    private let registrar = ObservationRegistrar()
    private var stateListeners: [UUID: AsyncStream<State>.Continuation] = [:]
    private let clock: any Clock<Duration>
    private var changeCount = 0
    /// The file as the document last read or wrote it: a file that differs is someone else's.
    private var knownVersion: DocumentFile.Version?
    private var watcher: FileWatcher?
    private var changeGeneration = 0
    /// Whether a save is under way, and the saves waiting for it, in order.
    private var saving = false
    private var waitingSaves: [CheckedContinuation<Void, Never>] = []
    /// The autosave waiting for its moment, or under way.
    package private(set) var scheduledAutosave: Task<Void, Never>?

    public init(fileURL: URL, clock: any Clock<Duration> = ContinuousClock()) {
        self.fileURL = fileURL
        self.clock = clock
    }

    /// A document that goes away ends the state streams of those still listening.
    deinit {
        watcher?.stop()
        for listener in stateListeners.values { listener.finish() }
    }

    // MARK: What a subclass gives

    /// The document's contents to save. The default has none to give.
    open func contents(forType typeName: String) throws -> Data {
        throw PrintError(.outputFailed, path: fileURL.path, "\(type(of: self)) does not say what to save: override contents(forType:)")
    }

    /// Takes contents read from the file.
    open func load(fromContents contents: Data, ofType typeName: String?) throws {}

    /// Hears errors of reading and saving; the default keeps the last in `lastError`.
    open func handleError(_ error: Error, userInteractionPermitted: Bool) { lastError = error }

    /// The file's type, from its name's extension (UIDocument's is a UTI).
    open var fileType: String? { fileURL.pathExtension.isEmpty ? nil : fileURL.pathExtension }

    /// What prints the document (`controller.printFormatter = document.printFormatter`); nil
    /// when the document does not print itself.
    open var printFormatter: PrintFormatter? { nil }

    // MARK: State

    public var hasUnsavedChanges: Bool { changeCount != 0 }

    /// The document's state now, then each change; it ends when the document goes away (a
    /// closed document may be opened again, so closing does not end it).
    public var documentStates: AsyncStream<State> {
        let (stream, continuation) = AsyncStream<State>.makeStream()
        let id = UUID()
        continuation.yield(state)
        stateListeners[id] = continuation
        // Weak in the outer closure: a weak capture only in the inner one would make the outer
        // hold the document strongly, and a listener would keep its document alive.
        continuation.onTermination = { [weak self] _ in Task { @MainActor in self?.stateListeners[id] = nil } }
        return stream
    }

    /// Records an edit; changed contents are saved `autosaveDelay` after the last one.
    public func updateChangeCount(_ change: ChangeKind) {
        changeGeneration += 1
        switch change {
        case .done, .redone: changeCount += 1
        case .undone: changeCount -= 1
        case .cleared: changeCount = 0
        }
        scheduleAutosave()
    }

    // MARK: Opening, saving, closing

    /// Starts watching the file and reads it; false (and `handleError`) when it cannot be
    /// read. Opening again reads the file afresh: no conflict and no unsaved changes are left.
    public func open() async -> Bool {
        watcher?.stop()
        // Watching starts first, so that no change between the read and the watch is missed.
        do {
            watcher = try FileWatcher(path: fileURL.path) { [weak self] events in
                Task { @MainActor in self?.fileChangedOnDisk(events) }
            }
        } catch {
            report(error)
        }
        guard await read(from: fileURL) else {
            watcher?.stop()
            watcher = nil
            return false
        }
        changeCount = 0
        documentState = .normal
        return true
    }

    /// Saves the contents to `url`: a new file with `.forCreating` (failing if one exists), the
    /// existing one replaced with `.forOverwriting`.
    ///
    /// One save runs at a time: a save asked for during another (an autosave, then `close()`)
    /// waits for it, then saves the contents as they are then.
    public func save(to url: URL, for operation: SaveOperation) async -> Bool {
        await beginSaving()
        defer { endSaving() }
        let data: Data
        do { data = try contents(forType: fileType ?? "public.data") } catch {
            report(error)
            documentState.insert(.savingError)
            return false
        }
        let generation = changeGeneration
        do {
            let path = url.path
            let version = try await BlockingCall.run { try DocumentFile.replace(path, with: data, creating: operation == .forCreating) }
            if url.standardizedFileURL == fileURL.standardizedFileURL {
                knownVersion = version
                fileModificationDate = version.modificationDate
                // Changes made while it saved are still unsaved.
                if changeGeneration == generation { changeCount = 0 }
                // A change by someone else while it saved: its events were taken for the save's.
                if DocumentFile.version(of: fileURL.path) != version { documentState.insert(.inConflict) }
            }
            documentState.remove(.savingError)
            return true
        } catch {
            report(error)
            documentState.insert(.savingError)
            return false
        }
    }

    /// Saves now if there are unsaved changes and the document may be saved (open, not in
    /// conflict, editing allowed); true when there was nothing to save or it saved.
    public func autosave() async -> Bool {
        guard hasUnsavedChanges else { return true }
        guard documentState.isDisjoint(with: [.closed, .inConflict, .editingDisabled]) else { return false }
        return await save(to: fileURL, for: .forOverwriting)
    }

    /// Reads the document again from `url`, dropping unsaved changes.
    public func revert(toContentsOf url: URL) async -> Bool {
        guard await read(from: url) else { return false }
        changeCount = 0
        scheduledAutosave?.cancel()
        documentState.remove([.inConflict, .savingError])
        return true
    }

    /// Saves unsaved changes, stops watching the file and marks the document closed; false when
    /// the save failed (the document is closed all the same, as UIDocument's is).
    /// In conflict, unsaved changes are not saved over the other version, and it returns false.
    public func close() async -> Bool {
        scheduledAutosave?.cancel()
        var saved = true
        if hasUnsavedChanges {
            saved = documentState.contains(.inConflict) ? false : await save(to: fileURL, for: .forOverwriting)
        }
        watcher?.stop()
        watcher = nil
        documentState.insert(.closed)
        return saved
    }

    // MARK: Conflicts

    /// The file as it is on disk now: the other version when the document is in conflict.
    public func contentsOnDisk() async throws -> Data {
        let path = fileURL.path
        return try await BlockingCall.run { try DocumentFile.read(path).contents }
    }

    /// Ends a conflict keeping the document's contents (saved over the file) or the file's
    /// (read into the document).
    public func resolveConflict(keeping version: Version) async -> Bool {
        switch version {
        case .current:
            // The other program may have removed the file.
            let operation: SaveOperation = DocumentFile.version(of: fileURL.path) == nil ? .forCreating : .forOverwriting
            guard await save(to: fileURL, for: operation) else { return false }
            documentState.remove(.inConflict)
            return true
        case .onDisk:
            return await revert(toContentsOf: fileURL)
        }
    }

    // MARK: Inside

    private func read(from url: URL) async -> Bool {
        let path = url.path
        do {
            let (data, version) = try await BlockingCall.run { try DocumentFile.read(path) }
            try load(fromContents: data, ofType: fileType)
            if url.standardizedFileURL == fileURL.standardizedFileURL {
                knownVersion = version
                fileModificationDate = version.modificationDate
            }
            return true
        } catch {
            report(error)
            return false
        }
    }

    /// The watcher saw the file change. During the document's own save the change is its own;
    /// after it, a file unlike the one the document last read or wrote is someone else's.
    private func fileChangedOnDisk(_ events: UInt32) {
        defer { fileEventsHandled.continuation.yield(events) }
        guard !documentState.contains(.closed), !saving else { return }
        let now = DocumentFile.version(of: fileURL.path)
        guard now != knownVersion else { return }
        scheduledAutosave?.cancel()
        documentState.insert(.inConflict)
    }

    /// The inotify events of each change to the file the document has handled, in order: a test
    /// makes a change of its own (`IN_ATTRIB`) and, once that is handled, knows every earlier one was.
    package let fileEventsHandled = AsyncStream<UInt32>.makeStream(bufferingPolicy: .bufferingNewest(256))

    private func beginSaving() async {
        if saving { await withCheckedContinuation { waitingSaves.append($0) } }
        saving = true
    }

    /// Hands the turn to the next waiting save, if any (it stays `saving`).
    private func endSaving() {
        if waitingSaves.isEmpty { saving = false } else { waitingSaves.removeFirst().resume() }
    }

    private func scheduleAutosave() {
        scheduledAutosave?.cancel()
        guard hasUnsavedChanges else { return }
        let clock = self.clock
        let delay = autosaveDelay
        scheduledAutosave = Task { [weak self] in
            do { try await clock.sleep(for: delay) } catch { return }
            _ = await self?.autosave()
        }
    }

    private func report(_ error: Error) {
        lastError = error
        handleError(error, userInteractionPermitted: false)
    }
}
