#if canImport(Glibc)
import Glibc
#endif

/// An open folder the backend may write in as root: reached from `/` one component at a time
/// with `O_NOFOLLOW`, so no link on the way is followed, and each component owned by root (or
/// by the account the backend runs as) and writable by nobody else. A parent that others may
/// write in is accepted only when it is sticky (like /tmp): there nobody else can rename or
/// replace a folder root owns. Everything after opening goes through the descriptor (`openat`,
/// `mkdirat`, `fchown`), so the folder cannot be swapped for another between check and use.
struct TrustedFolder: ~Copyable {
    let fd: Int32
    let path: String

    /// Why a folder was refused, in words for `lpstat`, and its errno when a call failed.
    struct Refusal: Error {
        let message: String
        let code: Int32?
    }

    /// Opens `path` (absolute, already checked to hold no `.` or `..`), making its last
    /// component (mode 0755) when it does not exist.
    static func open(_ path: String) -> Result<TrustedFolder, Refusal> {
        let components = path.split(separator: "/").map(String.init)
        var fd = Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Refusal(message: "cannot open /", code: errno)) }
        if let refusal = check(fd, path: "/", last: components.isEmpty) { close(fd); return .failure(refusal) }
        var reached = ""
        for (index, name) in components.enumerated() {
            reached += "/" + name
            let last = index == components.count - 1
            var next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && last {
                if mkdirat(fd, name, 0o755) != 0 && errno != EEXIST {
                    let code = errno
                    close(fd)
                    return .failure(Refusal(message: "cannot make \(reached)", code: code))
                }
                next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            close(fd)
            guard next >= 0 else {
                let why = code == ELOOP || code == ENOTDIR ? "\(reached) is a link or not a folder" : "cannot open \(reached)"
                return .failure(Refusal(message: why, code: code == ELOOP || code == ENOTDIR ? nil : code))
            }
            fd = next
            if let refusal = check(fd, path: reached, last: last) { close(fd); return .failure(refusal) }
        }
        return .success(TrustedFolder(fd: fd, path: path))
    }

    /// Refuses a folder owned by someone other than root and this process's account, or
    /// writable by others (for a parent: unless it is sticky).
    private static func check(_ fd: Int32, path: String, last: Bool) -> Refusal? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return Refusal(message: "cannot read \(path)", code: errno) }
        guard info.st_uid == 0 || info.st_uid == geteuid() else {
            return Refusal(message: "\(path) belongs to the account \(info.st_uid), not to root", code: nil)
        }
        let othersWrite = info.st_mode & (S_IWGRP | S_IWOTH) != 0
        let sticky = info.st_mode & S_ISVTX != 0
        if othersWrite && (last || !sticky) {
            return Refusal(message: "\(path) may be written by other accounts (mode \(String(info.st_mode & 0o7777, radix: 8)))", code: nil)
        }
        return nil
    }

    deinit { close(fd) }
}
