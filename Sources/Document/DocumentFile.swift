import CXattr
import Foundation
import Glibc
import PrintModel
import PrintSupport

/// A document's file on disk: read whole, and replaced whole or not at all.
///
/// Saving writes a temporary file beside the document (same folder, so same file system),
/// gives it the old file's owner, permissions and extended attributes, flushes it to disk,
/// renames it over the document and flushes the folder: at every moment the document's name
/// holds either the old contents or the new, whatever stops the process. On any failure the
/// temporary file is removed and the old file is untouched. A document reached through a
/// symbolic link is saved where the link points, and the link stays.
enum DocumentFile {
    /// What tells one version of the file from another: a save by anyone changes it.
    typealias Version = FileVersion

    /// The file's version now, or nil when there is no file.
    static func version(of path: String) -> Version? { FileVersion.of(path) }

    /// The file's contents and the version they are, read through one descriptor (a file
    /// replaced meanwhile cannot pair its version with the old contents).
    static func read(_ path: String) throws -> (contents: Data, version: Version) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PrintError.system(.inputUnreadable, path: path, "cannot read the document", errno: errno) }
        defer { close(fd) }
        var s = stat()
        guard fstat(fd, &s) == 0 else { throw PrintError.system(.inputUnreadable, path: path, "cannot read the document", errno: errno) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw PrintError.system(.inputUnreadable, path: path, "cannot read the document", errno: errno) }
            if n == 0 { break }
            data.append(contentsOf: chunk[..<n])
        }
        return (data, Version(s))
    }

    /// The environment variable naming a file (or FIFO) that a save writes the temporary file's
    /// name to once half its bytes are in it, before it stops there for good: tests kill a save
    /// at that point (`DocumentSavingFaultTests`) instead of hoping to catch one mid-write.
    static let pauseVariable = "SWIFTPRINT_DOCUMENT_SAVE_PAUSE"

    /// Replaces (or, with `creating`, creates) the file at `path` with `data`; returns the
    /// version written. Errors name the file and carry errno.
    static func replace(_ path: String, with data: Data, creating: Bool) throws -> Version {
        // Through a symbolic link, the file it points to is the one replaced.
        let target = creating ? path : ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent($0)
        } ?? path)
        let folder = (target as NSString).deletingLastPathComponent.isEmpty ? "." : (target as NSString).deletingLastPathComponent
        var old = stat()
        let exists = stat(target, &old) == 0
        if creating, exists { throw PrintError.system(.outputFailed, path: path, "cannot create the document", errno: EEXIST) }
        if !creating, !exists { throw PrintError.system(.outputFailed, path: path, "cannot overwrite the document", errno: ENOENT) }

        // mkstemp's template: it replaces the six Xs with a name no file has yet.
        var template = Array("\(folder)/.\((target as NSString).lastPathComponent).swiftprint-save-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw PrintError.system(.outputFailed, path: path, "cannot save beside the document", errno: errno) }
        // (Glibc's module has no mkostemp: a program spawned by another thread in between may
        // inherit the descriptor, and holds only a file about to be renamed or removed.)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var kept = false
        defer {
            close(fd)
            if !kept { unlink(temporary) }
        }
        func fail(_ what: String, _ code: PrintError.Code = .outputFailed) -> PrintError { PrintError.system(code, path: path, what, errno: errno) }

        // With the pause variable set, half the bytes are written, the marker written to, and
        // the process stops there until it is killed.
        let pauseMarker = ProcessInfo.processInfo.environment[pauseVariable]
        try data.withUnsafeBytes { bytes in
            var offset = 0
            let end = pauseMarker == nil ? bytes.count : bytes.count / 2
            while offset < end {
                let n = write(fd, bytes.baseAddress! + offset, end - offset)
                if n < 0, errno == EINTR { continue }
                if n < 0 { throw fail("cannot save the document", .outputWriteFailed) }
                offset += n
            }
        }
        if let pauseMarker {
            // Opened, not replaced: the marker may be a FIFO the test reads, which then wakes
            // as soon as the save has stopped.
            let marker = open(pauseMarker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if marker >= 0 { _ = temporary.withCString { write(marker, $0, strlen($0)) }; close(marker) }
            while true { pause() }
        }
        if exists {
            // Owner first: changing it clears set-id bits the mode then puts back. Root keeps the
            // owner; anyone else keeps the group when they belong to it.
            _ = fchown(fd, getuid() == 0 ? old.st_uid : uid_t.max, old.st_gid)
            guard fchmod(fd, old.st_mode & 0o7777) == 0 else { throw fail("cannot give the saved document its permissions") }
            try copyExtendedAttributes(from: target, to: fd, path: path)
        } else {
            guard fchmod(fd, 0o666 & ~processUmask()) == 0 else { throw fail("cannot give the saved document its permissions") }
        }
        guard fsync(fd) == 0 else { throw fail("cannot save the document", .outputWriteFailed) }
        var written = stat()
        guard fstat(fd, &written) == 0 else { throw fail("cannot save the document") }
        if creating {
            // link() never replaces: a file made meanwhile by someone else stays theirs.
            guard link(temporary, target) == 0 else { throw fail("cannot create the document") }
            unlink(temporary)
        } else {
            guard rename(temporary, target) == 0 else { throw fail("cannot put the saved document in place") }
        }
        kept = true
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 { fsync(folderFD); close(folderFD) }
        return Version(written)
    }

    /// The process's umask, read without changing it (umask() would, for every thread).
    private static func processUmask() -> mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let mask = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else { return 0o022 }
        return mask
    }

    /// Every extended attribute of `source` the process may read, set on `fd`.
    private static func copyExtendedAttributes(from source: String, to fd: Int32, path: String) throws {
        let size = listxattr(source, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let listed = listxattr(source, &names, size)
        guard listed > 0 else { return }
        for name in names[..<listed].split(separator: 0) {
            let key = String(decoding: name.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let length = getxattr(source, key, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(length, 1))
            let read = getxattr(source, key, &value, length)
            guard read >= 0 else { continue }
            guard fsetxattr(fd, key, value, read, 0) == 0 else {
                // Attributes only root may set (trusted.*, security.*) stay behind for others.
                if errno == EPERM || errno == ENOTSUP { continue }
                throw PrintError.system(.outputFailed, path: path, "cannot keep the document's attribute \(key)", errno: errno)
            }
        }
    }
}

extension FileVersion {
    /// When the version was written, as a date.
    var modificationDate: Date {
        Date(timeIntervalSince1970: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9)
    }
}
