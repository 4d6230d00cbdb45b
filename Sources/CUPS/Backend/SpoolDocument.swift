import CXattr
#if canImport(Glibc)
import Glibc
#endif

/// One document's temporary file in the owner's folder, which is the working directory by
/// now (`SpoolJob` moved into it): `.<job>-partial-` and six random characters, hidden, made by
/// the owner. It becomes `<name>.pdf` only when whole; a termination signal (cupsd cancelling
/// the job) removes it, and what a SIGKILL left is removed by the owner's next job
/// (`removeAbandoned`).
struct SpoolDocument {
    let fd: Int32
    let name: String

    static func create(job: String) -> Result<SpoolDocument, Errno> {
        while true {
            // mkstemp replaces the template's last six characters, which must be "X".
            var template = Array(".\(job)-partial-\(String(repeating: "X", count: 6))".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return .failure(Errno(errno)) }
            let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // Locked until the file is committed or discarded, or the backend dies: how
            // `removeAbandoned` tells a file still being written. Another backend's sweep may
            // have taken it in the moment before the lock: then the name is gone, and a new
            // file is made.
            var opened = stat(), named = stat()
            guard flock(fd, LOCK_EX) == 0, fstat(fd, &opened) == 0 else { let e = errno; close(fd); return .failure(Errno(e)) }
            guard stat(name, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev else {
                close(fd)
                continue
            }
            PartialFile.track(name)
            return .success(SpoolDocument(fd: fd, name: name))
        }
    }

    /// Removes partial files that no backend writes any more (none holds its lock), from the
    /// owner's folder (the working directory): those of backends killed by SIGKILL, which no
    /// handler sees (cupsd stopping for a restart or an update kills its backends so, and runs
    /// their jobs again from the start; the kernel out of memory; an administrator).
    static func removeAbandoned() {
        guard let folder = opendir(".") else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            guard name.hasPrefix("."), let range = name.range(of: "-partial-"),
                  name[name.index(after: name.startIndex) ..< range.lowerBound].allSatisfy(\.isNumber) else { continue }
            let fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var status = stat()
            guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            unlink(name)
        }
    }

    func write(_ bytes: [UInt8]) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return Errno(errno) }
            offset += n
        }
        return nil
    }

    /// Links the file into place as the first free one of `<name>.pdf` for `names`, then
    /// `<last name> (2).pdf`…: another job's file is never replaced, so two jobs of one name at
    /// once get two files. A file this same job saved in an earlier run (`job`, kept on the file
    /// as an extended attribute) is replaced instead: cupsd killed between the backend's save and
    /// its own note that the job ended runs the job again from the start, and the job is saved
    /// once. A file of this same run is a sibling document's, and kept. Returns the final name.
    func commit(trying names: [String], job: JobMark? = nil) -> Result<String, Errno> {
        defer { close(fd); unlink(name); PartialFile.track(nil) }
        fchmod(fd, 0o600)
        // A folder whose filesystem keeps no user attributes saves a job run again twice.
        let job = job.flatMap { mark in fsetxattr(fd, Self.jobAttribute, mark.text, mark.text.utf8.count, 0) == 0 ? mark : nil }
        if fsync(fd) != 0 { return .failure(Errno(errno)) }
        let finals = names.map { "\($0).pdf" } + (2...1000).map { "\(names.last!) (\($0)).pdf" }
        for final in finals {
            if link(name, final) == 0 { return .success(final) }
            if errno == EEXIST {
                guard let job, let theirs = Self.job(of: final), job.isEarlierRun(of: theirs) else { continue }
                return rename(name, final) == 0 ? .success(final) : .failure(Errno(errno))
            }
            // Filesystems without hard links: rename, after checking the name is free (a
            // race only with the owner's own next job, in the owner's own folder).
            if errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP, access(final, F_OK) != 0 {
                if rename(name, final) == 0 { return .success(final) }
            }
            return .failure(Errno(errno))
        }
        return .failure(Errno(EEXIST))
    }

    /// The extended attribute that names the job a saved file is of.
    static let jobAttribute = "user.swiftprint.job-uuid"

    /// The job (its `job-uuid`, and for a job of several documents its run) the saved file
    /// `path` is of, when it says.
    static func job(of path: String) -> JobMark? {
        var value = [UInt8](repeating: 0, count: 128)
        let n = lgetxattr(path, jobAttribute, &value, value.count)
        return n > 0 ? JobMark(text: String(decoding: value[0..<n], as: UTF8.self)) : nil
    }

    /// What a saved file says of the job that saved it: cupsd's `job-uuid`, the same in every
    /// run of the job, and for a job of several documents the run (`SpoolJob.run`): a
    /// file of the same job but another run is one this run replaces.
    struct JobMark: Equatable {
        var uuid: String
        var run: String?

        init(uuid: String, run: String?) { self.uuid = uuid; self.run = run }
        /// `<uuid>` or `<uuid> <run>`.
        init(text: String) {
            let parts = text.split(separator: " ", maxSplits: 1)
            uuid = String(parts.first ?? "")
            run = parts.count > 1 ? String(parts[1]) : nil
        }
        var text: String { run.map { "\(uuid) \($0)" } ?? uuid }

        /// Whether `saved` is this job's, saved by an earlier run (a document's file this run's
        /// may replace); a sibling document of this same run is not.
        func isEarlierRun(of saved: JobMark) -> Bool {
            saved.uuid == uuid && (run == nil || saved.run != run)
        }
    }

    func discard() {
        close(fd)
        unlink(name)
        PartialFile.track(nil)
    }
}

/// An errno value as an Error.
struct Errno: Error { let code: Int32; init(_ code: Int32) { self.code = code } }

/// The partial file a SIGTERM (cupsd cancelling the job) must remove: kept as a C string made
/// in advance, since a signal handler may only unlink(2).
enum PartialFile {
    // Safe: the backend is one thread; the signal handler only reads the pointer, which is
    // set to a whole C string made before (or to nil) and freed only after it is replaced.
    nonisolated(unsafe) private static var current: UnsafeMutablePointer<CChar>?
    /// Installed once, on the first `track`.
    private static let handlers: Void = {
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig) { s in
                if let c = PartialFile.current { unlink(c) }
                _exit(s == SIGTERM ? 0 : 128 + s)
            }
        }
    }()

    static func track(_ path: String?) {
        _ = handlers
        let old = current
        current = path.flatMap { strdup($0) }
        free(old)
    }
}
