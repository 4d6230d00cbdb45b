import Foundation
import PrintModel
import PrintSupport

/// A markup renderer that outlives the run that started it, so that later runs of the same user
/// skip starting the display, GTK and WebKit (about half a second). Asked for with
/// `SWIFTPRINT_MARKUP_KEEP=SECONDS`: the renderer stays that long after its last document.
///
/// It listens on a Unix socket in a folder only its user may enter
/// (`$XDG_RUNTIME_DIR/swiftprint`, else `$TMPDIR/swiftprint-UID`, else `/tmp/swiftprint-UID`), and
/// serves connections from its own user only (checked with SO_PEERCRED), one at a time, with
/// the same request lines as a renderer on a pipe. A lock file makes sure one runs per folder.
/// CUPS jobs never use it: under CUPS every user's jobs run as `lp`, and each job keeps a
/// renderer of its own.
package enum SharedRenderer {
    /// Seconds a renderer stays after its last document, from `SWIFTPRINT_MARKUP_KEEP`; nil: no
    /// shared renderer (each run starts its own).
    package static func keepSeconds(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double? {
        guard let text = environment["SWIFTPRINT_MARKUP_KEEP"], let seconds = Double(text), seconds > 0 else { return nil }
        return min(seconds, 86_400)
    }

    /// The folder of this user's renderer: made mode 0700 when missing; refused when it is not
    /// a real folder of this user that nobody else may enter (someone may have made it first).
    package static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let path = folderPath(environment: environment)
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw PrintError.system(.notAvailable, path: path, "cannot make the shared renderer's folder", errno: errno)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw PrintError.system(.notAvailable, path: path, "cannot read the shared renderer's folder", errno: errno)
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw PrintError(.notAvailable, path: path, "is not a private folder of this user (it must be a folder of mode 0700); not used for the shared renderer")
        }
        return path
    }

    /// Where the folder is (`$XDG_RUNTIME_DIR/swiftprint`, else `$TMPDIR/swiftprint-UID`, else
    /// `/tmp/swiftprint-UID`), whether or not it is there.
    package static func folderPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/swiftprint" }
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(base)/swiftprint-\(getuid())"
    }

    /// The socket's address, or nil when the path does not fit one.
    private static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// A connection to the renderer listening at `socketPath`, or nil when none listens there.
    package static func connect(to socketPath: String) -> Int32? {
        guard var address = address(socketPath) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0, peer(of: fd)?.uid == getuid() else { close(fd); return nil }
        return fd
    }

    /// A socket listening at `socketPath` (a stale one there is replaced), mode 0600.
    package static func listen(at socketPath: String) throws -> Int32 {
        guard var address = address(socketPath) else {
            throw PrintError(.notAvailable, path: socketPath, "the path is too long for a socket")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PrintError.system(.notAvailable, path: socketPath, "cannot make a socket", errno: errno) }
        unlink(socketPath)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(socketPath, 0o600) == 0, Foundation.listen(fd, 16) == 0 else {
            let error = errno
            close(fd)
            throw PrintError.system(.notAvailable, path: socketPath, "cannot listen", errno: error)
        }
        return fd
    }

    /// The process at the other end of a Unix socket: its user and process id.
    package static func peer(of fd: Int32) -> (uid: uid_t, pid: pid_t)? {
        // struct ucred (pid, uid, gid), which Glibc declares only under _GNU_SOURCE.
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        let status = withUnsafeMutableBytes(of: &credentials) { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &size) }
        guard status == 0, size == MemoryLayout.size(ofValue: credentials) else { return nil }
        return (credentials.uid, credentials.pid)
    }
}
