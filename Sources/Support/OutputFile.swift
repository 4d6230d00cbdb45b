#if canImport(Glibc)
import Foundation
import Glibc
import PrintModel
#endif
import Synchronization

/// Where a document's bytes go.
public enum OutputDestination: Hashable, Sendable {
    /// A file, written the UIDocument way: into a temporary file beside it, renamed over it
    /// only when the whole document is written. A failed job leaves nothing behind.
    case file(String)
    /// Standard output, as a CUPS filter writes.
    case standardOutput
    /// Memory: the whole document in `WrittenBytes` once the job has written all of it, nothing
    /// on disk (an app that shows or sends the PDF itself; tests of one layer).
    case memory(WrittenBytes)

    /// `-` means standard output.
    public init(path: String) { self = path == "-" ? .standardOutput : .file(path) }
}

/// A document written to memory (`OutputDestination.memory`): empty until the job that writes
/// it has written the whole of it, and left empty by a job that fails.
public final class WrittenBytes: Hashable, Sendable {
    private let stored = Mutex(Data())
    public init() {}
    /// The document's bytes.
    public var data: Data { stored.withLock { $0 } }
    func publish(_ bytes: Data) { stored.withLock { $0 = bytes } }
    public static func == (a: WrittenBytes, b: WrittenBytes) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A buffered byte sink over a file descriptor, committing files atomically.
package final class OutputFile {
    private let destination: OutputDestination
    private let fd: Int32
    private var temporaryPath: String?
    /// Where the temporary file is renamed to: the destination, or the file its link points to.
    private var finalPath: String?
    private var buffer: [UInt8] = []
    private var failure: PrintError?
    package private(set) var bytesWritten = 0
    private var closed = false
    /// A scratch file is kept under its temporary name after commit, to be read back.
    private var isScratch = false
    /// What a memory output holds so far, published whole on commit.
    private var memory = Data()

    /// A scratch file in the temporary folder (TMPDIR): written like an output, kept after
    /// `commit()` so that it can be read back, deleted by `removeScratch()` or on a signal.
    package static func scratch(prefix: String) throws -> OutputFile {
        try OutputFile(scratchIn: TemporaryFiles.folder, prefix: prefix)
    }

    private init(scratchIn dir: String, prefix: String) throws {
        guard let (fd, temp) = TemporaryFiles.make(in: dir, prefix: prefix) else {
            throw PrintError.system(.outputFailed, path: dir, "cannot create a temporary file", errno: errno)
        }
        destination = .file(temp)
        self.fd = fd
        temporaryPath = temp
        isScratch = true
        buffer.reserveCapacity(1 << 18)
        TemporaryFiles.register(temp)
    }

    /// The scratch file's path.
    package var scratchPath: String? { isScratch ? temporaryPath : nil }

    /// Deletes a scratch file.
    package func removeScratch() {
        guard isScratch, let temp = temporaryPath else { return }
        if !closed { closed = true; close(fd) }
        unlink(temp)
        TemporaryFiles.unregister(temp)
    }

    package init(_ destination: OutputDestination) throws {
        self.destination = destination
        buffer.reserveCapacity(1 << 18)
        switch destination {
        case .memory:
            fd = -1
        case .standardOutput:
            fd = STDOUT_FILENO
        case .file(let given):
            var info = stat()
            if stat(given, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                // A device, pipe or socket (`-o /dev/null`, a FIFO) is written as it is: a
                // temporary file renamed over it would replace the device node itself.
                guard (info.st_mode & S_IFMT) != S_IFDIR else {
                    throw PrintError(.outputFailed, path: given, "is a folder; name the PDF file to write")
                }
                let fd = open(given, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw PrintError.system(.outputFailed, path: given, "cannot open the output", errno: errno) }
                self.fd = fd
                return
            }
            // Through a symbolic link the file it points to is replaced, and the link stays.
            let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: given)) != nil
                ? URL(fileURLWithPath: given).resolvingSymlinksInPath().path : given
            finalPath = path
            let url = URL(fileURLWithPath: path)
            let dir = url.deletingLastPathComponent().path
            guard let (fd, temp) = TemporaryFiles.make(in: dir, prefix: ".\(url.lastPathComponent).") else {
                throw PrintError.system(.outputFailed, path: path, "cannot create the output file", errno: errno)
            }
            self.fd = fd
            temporaryPath = temp
            TemporaryFiles.register(temp)
            // mkstemp makes the file 0600; give it the mode a new file would get.
            let mask = umask(0); umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
    }

    /// Writes `bytes` to `path`, replacing it whole or not at all. Foundation's atomic writes
    /// would do the same, but on Linux each leaves an empty `TemporaryDirectory.*` folder behind
    /// in /tmp.
    package static func save(_ bytes: Data, to path: String) throws {
        let out = try OutputFile(.file(path))
        bytes.withUnsafeBytes { out.write($0) }
        try out.commit()
    }

    deinit {
        if !closed { abandon() }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes.bindMemory(to: UInt8.self))
        if buffer.count >= 1 << 18 { flush() }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        if case .memory = destination {
            memory.append(contentsOf: buffer)
            bytesWritten += buffer.count
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                // A pipe's reader gone: a CUPS backend that was stopped, a `| head` that had enough.
                failure = errno == EPIPE
                    ? PrintError(.outputWriteFailed, path: pathForMessages, "cannot write the output: the program reading it has stopped")
                    : .system(.outputWriteFailed, path: pathForMessages, "cannot write the output", errno: errno)
                break
            }
            offset += n
        }
        bytesWritten += offset
        buffer.removeAll(keepingCapacity: true)
    }

    private var pathForMessages: String {
        if case .file(let path) = destination { return path }
        if case .memory = destination { return "memory" }
        return "standard output"
    }

    /// Makes the output final: flushes it and, for a file, renames it into place.
    package func commit() throws {
        flush()
        if let failure { abandon(); throw failure }
        closed = true
        if case .memory(let target) = destination {
            target.publish(memory)
            memory = Data()
            return
        }
        guard case .file(let path) = destination else { return }
        guard let temp = temporaryPath else {
            // Written in place (a device or pipe): only closed.
            if close(fd) != 0 { throw PrintError.system(.outputWriteFailed, path: path, "cannot write the output", errno: errno) }
            return
        }
        if isScratch {
            if close(fd) != 0 { throw PrintError.system(.outputWriteFailed, path: temp, "cannot write a temporary file", errno: errno) }
            return
        }
        if close(fd) != 0 {
            let e = errno
            unlink(temp); TemporaryFiles.unregister(temp)
            throw PrintError.system(.outputWriteFailed, path: path, "cannot write the output", errno: e)
        }
        if rename(temp, finalPath ?? path) != 0 {
            let e = errno
            unlink(temp); TemporaryFiles.unregister(temp)
            throw PrintError.system(.outputFailed, path: path, "cannot put the output in place", errno: e)
        }
        TemporaryFiles.unregister(temp)
    }

    /// Throws away what was written: a file's temporary copy is removed.
    package func abandon() {
        guard !closed else { return }
        closed = true
        buffer.removeAll()
        memory = Data()
        if let temp = temporaryPath {
            close(fd)
            unlink(temp)
            TemporaryFiles.unregister(temp)
        } else if case .file = destination {
            close(fd)
        }
    }

    package var error: PrintError? { failure }
}

/// Temporary files that a signal must not leave behind. The SIGINT/SIGTERM handler calls
/// `removeAllFromSignalHandler()`, which only calls unlink(2) on C strings made in advance.
public enum TemporaryFiles {
    private static let lock = NSLock()
    // Safe: `paths` and `table` change only under `lock`; the signal handler reads `table`'s
    // entries, each nil or a whole C string freed only after its entry is cleared.
    nonisolated(unsafe) private static var paths: [String: UnsafeMutablePointer<CChar>] = [:]
    // A fixed table the signal handler can read without allocating.
    nonisolated(unsafe) private static var table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 16)
    // Safe: set once (under `lock`, in `register`) before any entry exists for the handler.
    nonisolated(unsafe) private static var tableReady: Bool = {
        table.initialize(repeating: nil, count: 16); return true
    }()

    /// Creates a new file `<directory>/<prefix>` plus six random characters with mkstemp(3);
    /// returns it open for reading and writing, with its path. Nil (errno set) on failure.
    package static func make(in directory: String, prefix: String) -> (fd: Int32, path: String)? {
        // mkstemp replaces the template's last six characters, which must be "X".
        var template = Array("\(directory)/\(prefix)\(String(repeating: "X", count: 6))".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// A new file in the temporary folder, open for reading and writing (not inherited by
    /// programs started), already removed from the folder: nothing of it can be left behind,
    /// whatever ends the process. `purpose` completes the error: "cannot make a temporary
    /// file for PURPOSE in FOLDER".
    package static func makeUnlinked(prefix: String, for purpose: String) throws -> Int32 {
        let folder = folder
        guard let (fd, path) = make(in: folder, prefix: prefix) else {
            throw PrintError.system(.jobFailed, path: nil, "cannot make a temporary file for \(purpose) in \(folder)", errno: errno)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        unlink(path)
        return fd
    }

    /// The temporary folder: $TMPDIR, or /tmp.
    package static var folder: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Creates a new folder, readable by its owner only, in `folder`, with mkdtemp(3).
    package static func makePrivateDirectory(prefix: String) throws -> String {
        let base = folder
        var template = Array("\(base)/\(prefix)\(String(repeating: "X", count: 6))".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw PrintError.system(.outputFailed, path: base, "cannot make a private temporary folder", errno: errno)
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    package static func register(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        _ = tableReady
        guard let c = strdup(path) else { return }
        paths[path] = c
        for i in 0..<16 where table[i] == nil { table[i] = c; return }
    }

    package static func unregister(_ path: String) {
        lock.lock(); defer { lock.unlock() }
        guard let c = paths.removeValue(forKey: path) else { return }
        for i in 0..<16 where table[i] == c { table[i] = nil }
        free(c)
    }

    /// Unlinks every registered file; safe to call from a signal handler.
    public static func removeAllFromSignalHandler() {
        guard tableReady else { return }
        for i in 0..<16 { if let c = table[i] { unlink(c) } }
    }

    /// On SIGINT, SIGTERM or SIGHUP (cupsd cancelling a job sends SIGTERM): removes every
    /// temporary file and exits with 128 + the signal, leaving no partial output behind.
    public static func removeOnTerminationSignals() {
        _ = tableReady
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig) { s in
                TemporaryFiles.removeAllFromSignalHandler()
                _exit(128 + s)
            }
        }
    }
}
