import CUPSCommon
#if canImport(Glibc)
import Glibc
#endif

/// One job being saved: its folder, its documents' temporary files and their final names.
struct SpoolJob {
    let id: String
    let user: String
    let title: String
    /// The job's documents' names, when it has several.
    var documents: [String] = []
    let spool: String
    /// The account that saves the jobs of senders with no account here (the URI's `guest=`).
    var guestAccount: String? = nil
    /// cupsd's `job-uuid` for the job, which stays the same when the job is run again.
    var uuid: String? = nil
    /// This run of the job: cupsd's `time-at-processing`, set each time the job starts (again
    /// after a restart), the same for each of its documents' backends.
    var run: String? = nil

    typealias Status = SpoolBackend.Status

    /// The folder's name for a sender with no account here: the name made safe (`lp -U` and a
    /// phone's requesting-user-name can send anything).
    var userFolderName: String { SafeFileName.component(user, fallback: "anonymous") }

    /// `<job>-<title>` without `.pdf`, which the saved file gets anyway.
    var baseName: String { name(title) }

    /// The names to try, in order: for a job of several documents, each document's name
    /// (the backends run one after another, so the first free one is this document's).
    var candidateNames: [String] {
        documents.count > 1 ? documents.map(name) + [baseName] : [baseName]
    }

    private func name(_ text: String) -> String {
        var t = text
        if t.lowercased().hasSuffix(".pdf") { t.removeLast(4) }
        return "\(id)-\(SafeFileName.component(t))"
    }

    func save(from input: Int32) -> Status {
        let folder: String
        switch enterUserFolder() {
        case .success(let path): folder = path
        case .failure(let status): return status
        }
        SpoolDocument.removeAbandoned()
        var completeness = PDFCompleteness()
        var document: SpoolDocument?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                CUPSMessages.send("ERROR", "swiftprint: cannot read the job's data: \(String(cString: strerror(errno)))")
                document?.discard()
                return .failed
            }
            if n == 0 { break }
            let bytes = Array(buffer[0..<n])
            completeness.add(bytes)
            if document == nil {
                switch SpoolDocument.create(job: id) {
                case .success(let d): document = d
                case .failure(let e): return fail(e.code, writing: folder)
                }
            }
            if let e = document!.write(bytes) { document?.discard(); return fail(e.code, writing: folder) }
        }
        guard let document, completeness.isComplete else {
            document?.discard()
            // A filter that failed has said why first, and cupsd keeps a job's first ERROR:
            // line; but a filter killed by a signal (the kernel out of memory) said nothing.
            // This line names the document, as the queue's latest news.
            CUPSMessages.send("ERROR", "swiftprint: \(title): nothing saved; the filter stopped before finishing its PDF "
                + "(\(completeness.byteCount) bytes): its own message, or else cupsd's error log, says why")
            return .failed
        }
        // A job run again replaces its own earlier files. Its documents' backends run one after
        // another, each taking the first name its siblings of this run left, so a job of several
        // tells this run's files from an earlier run's by the run; without one, it saves anew.
        let mark = uuid.flatMap { uuid in documents.count > 1 ? run.map { SpoolDocument.JobMark(uuid: uuid, run: $0) } : SpoolDocument.JobMark(uuid: uuid, run: nil) }
        switch document.commit(trying: candidateNames, job: mark) {
        case .success(let name):
            CUPSMessages.send("INFO", "Saved \(folder)/\(name)")
            return .ok
        case .failure(let e):
            return fail(e.code, writing: folder)
        }
    }

    /// The account a job's files belong to, and the name of its folder in the spool.
    struct Owner {
        let uid: uid_t
        let gid: gid_t
        let folderName: String
    }

    /// Who the job's files belong to. As root: the sender's account, or the queue's guest
    /// account for a sender with none here; with neither, nobody, and the job is held (root
    /// never writes a job's file). Not as root (a backend a user runs), this process's account.
    func owner() -> Result<Owner, Status> {
        guard geteuid() == 0 else { return .success(Owner(uid: geteuid(), gid: getegid(), folderName: userFolderName)) }
        if !user.isEmpty, let account = getpwnam(user) {
            return .success(Owner(uid: account.pointee.pw_uid, gid: account.pointee.pw_gid, folderName: user))
        }
        guard let guest = guestAccount else {
            CUPSMessages.send("ERROR", "swiftprint: the sender \(user) has no account on this machine, so the job is held; a queue shared with guests names the account that saves their jobs (swiftprint install --share --guest-account NAME)")
            return .failure(.hold)
        }
        guard let account = getpwnam(guest), account.pointee.pw_uid != 0 else {
            CUPSMessages.send("ERROR", "swiftprint: the guest account \(guest) named by the queue's device URI \(getpwnam(guest) == nil ? "does not exist" : "is root"); the job is held")
            return .failure(.hold)
        }
        return .success(Owner(uid: account.pointee.pw_uid, gid: account.pointee.pw_gid, folderName: userFolderName))
    }

    /// Opens the spool (checked all the way from `/`), makes and opens the owner's folder in it,
    /// gives that folder to the owner, drops root for the owner's account for good and moves
    /// into the folder: from here on every file is made by its owner, by a name relative to a
    /// folder that cannot be swapped. Returns the folder's path, for messages.
    private func enterUserFolder() -> Result<String, Status> {
        let owner: Owner
        switch self.owner() {
        case .success(let o): owner = o
        case .failure(let status): return .failure(status)
        }
        let spoolFolder: TrustedFolder
        switch TrustedFolder.open(spool) {
        case .success(let f): spoolFolder = f
        case .failure(let refusal):
            if let code = refusal.code { return .failure(fail(code, writing: spool)) }
            CUPSMessages.send("ERROR", "swiftprint: the spool folder is not safe to write in: \(refusal.message); the queue is stopped until an administrator fixes it")
            return .failure(.stop)
        }
        let path = spool + "/" + owner.folderName
        if mkdirat(spoolFolder.fd, owner.folderName, 0o700) != 0 && errno != EEXIST { return .failure(fail(errno, writing: path)) }
        let folder = openat(spoolFolder.fd, owner.folderName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                CUPSMessages.send("ERROR", "swiftprint: \(path) is a link or not a folder; the job is held")
                return .failure(.hold)
            }
            return .failure(fail(errno, writing: path))
        }
        defer { close(folder) }
        var info = stat()
        guard fstat(folder, &info) == 0 else { return .failure(fail(errno, writing: path)) }
        if info.st_uid != owner.uid {
            // Root's own folder (just made, or left by an earlier version) is given away; a
            // folder of a third account never is.
            guard info.st_uid == 0, geteuid() == 0, fchown(folder, owner.uid, owner.gid) == 0 else {
                CUPSMessages.send("ERROR", "swiftprint: \(path) belongs to another account; the job is held")
                return .failure(.hold)
            }
        }
        if geteuid() == 0 && owner.uid != 0 {
            guard setgroups(0, nil) == 0, setgid(owner.gid) == 0, setuid(owner.uid) == 0, setuid(0) != 0 else {
                CUPSMessages.send("ERROR", "swiftprint: cannot switch to the account of \(user): \(String(cString: strerror(errno)))")
                return .failure(.failed)
            }
        }
        guard fchdir(folder) == 0 else { return .failure(fail(errno, writing: path)) }
        return .success(path)
    }

    /// An error's message and CUPS's next step: a full disk is retried later, a folder that
    /// cannot be written holds the job until someone fixes it; nothing is dropped silently.
    private func fail(_ code: Int32, writing path: String) -> Status {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            CUPSMessages.send("ERROR", "swiftprint: cannot write in \(path): \(reason); the job will be retried")
            return .retry
        case EACCES, EPERM, EROFS:
            CUPSMessages.send("ERROR", "swiftprint: cannot write in \(path): \(reason); the job is held")
            return .hold
        default:
            CUPSMessages.send("ERROR", "swiftprint: cannot write in \(path): \(reason)")
            return .failed
        }
    }
}
