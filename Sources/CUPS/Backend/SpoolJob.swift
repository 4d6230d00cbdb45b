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

    typealias Status = SpoolBackend.Status

    /// The folder's name for the user: the account name made safe (`lp -U` can send anything).
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
        let folder = spool + "/" + userFolderName
        if let failure = prepare(folder: folder) { return failure }
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
                switch SpoolDocument.create(in: folder, job: id) {
                case .success(let d): document = d
                case .failure(let e): return fail(e.code, writing: folder)
                }
            }
            if let e = document!.write(bytes) { document?.discard(); return fail(e.code, writing: folder) }
        }
        guard let document, completeness.isComplete else {
            document?.discard()
            // A filter that failed has told cupsd why (its ERROR: line is the job's message and
            // is not replaced by later ones); this line is for the log.
            CUPSMessages.send("DEBUG", "swiftprint: the job's PDF ended early (\(completeness.byteCount) bytes); nothing saved")
            return .failed
        }
        switch document.commit(trying: candidateNames) {
        case .success(let path):
            CUPSMessages.send("INFO", "Saved \(path)")
            return .ok
        case .failure(let e):
            return fail(e.code, writing: folder)
        }
    }

    /// Makes the spool folder and the user's, gives the user's folder to its account (when it
    /// exists) and continues as that account; a failure says what and how CUPS should go on.
    private func prepare(folder: String) -> Status? {
        if mkdir(spool, 0o755) != 0 && errno != EEXIST { return fail(errno, writing: spool) }
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { return fail(errno, writing: folder) }
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            CUPSMessages.send("ERROR", "swiftprint: \(folder) is not a folder; the job is held")
            return .hold
        }
        guard geteuid() == 0 else { return nil }
        // Only a name that needed no cleaning can be an account.
        guard user == userFolderName, let account = getpwnam(user) else { return nil }
        let uid = account.pointee.pw_uid, gid = account.pointee.pw_gid
        if info.st_uid != uid, chown(folder, uid, gid) != 0 { return fail(errno, writing: folder) }
        // Write as the user from here on: the files are theirs, and root never writes inside a
        // folder that someone else controls.
        guard setgroups(0, nil) == 0, setgid(gid) == 0, setuid(uid) == 0 else {
            CUPSMessages.send("ERROR", "swiftprint: cannot switch to the user \(user): \(String(cString: strerror(errno)))")
            return .failed
        }
        return nil
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
