import Foundation
import PrintModel
import PrintSupport

/// A spare markup renderer: `swiftprint-markup --spare`, started ahead of a job (by the
/// installation's service, or by hand), with its display, GTK, WebKit and WebKit's web process
/// already running. The first run of its user that needs WebKit takes it, and it serves that
/// one run and then exits: no state passes from one job to the next. What starts it again is
/// whatever started it (systemd restarts the service, `Config/systemd/`).
///
/// It listens in the same private folder as the shared renderer (`SharedRenderer.folder`), on
/// its own socket, for its own user only (SO_PEERCRED). A run uses it unless
/// `SWIFTPRINT_MARKUP_SPARE=0`, and only when it was started from the same swiftprint-markup
/// the run would start itself (an upgrade leaves an old spare unused).
package enum SpareRenderer {
    package static let socketName = "markup-spare.socket"
    package static let lockName = "markup-spare.lock"
    /// What the spare says of itself once it listens: `<pid> <executable identity> <started>
    /// <ready>` (start as seconds since 1970, ready as seconds from start).
    package static let infoName = "markup-spare.info"

    /// Whether a run may take a spare: unless `SWIFTPRINT_MARKUP_SPARE=0`.
    package static func isWanted(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["SWIFTPRINT_MARKUP_SPARE"] != "0"
    }

    /// What tells two builds of the renderer apart: the file's device, inode, size and time.
    package static func identity(of executable: String) -> String? {
        var info = stat()
        guard stat(executable, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// A spare's account of itself.
    package struct Info: Sendable, Equatable {
        package var pid: pid_t
        package var executable: String
        package var started: Double
        package var ready: Double

        package init(pid: pid_t, executable: String, started: Double, ready: Double) {
            self.pid = pid; self.executable = executable; self.started = started; self.ready = ready
        }

        package init?(_ line: String) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count == 4, let pid = pid_t(fields[0]), let started = Double(fields[2]), let ready = Double(fields[3]) else { return nil }
            self.init(pid: pid, executable: String(fields[1]), started: started, ready: ready)
        }

        package var line: String { "\(pid) \(executable) \(started) \(ready)\n" }
    }

    /// A connection to a spare of `executable` listening in this user's folder, with its
    /// account of itself; nil when none is ready (or it is another build's).
    package static func take(executable: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> (fd: Int32, info: Info)? {
        guard isWanted(environment: environment), let identity = identity(of: executable) else { return nil }
        let folder = SharedRenderer.folderPath(environment: environment)
        // Only a folder of this user's that nobody else may enter (no folder is made here).
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0,
              let text = FileBytes.read(folder + "/" + infoName), let said = Info(String(decoding: text, as: UTF8.self)),
              said.executable == identity,
              let fd = SharedRenderer.connect(to: folder + "/" + socketName) else { return nil }
        // The one that answers is the one that wrote the account.
        guard SharedRenderer.peer(of: fd)?.pid == said.pid else { close(fd); return nil }
        return (fd, said)
    }
}
