import Foundation
import TestSupport
import Testing

/// The save-as-PDF backend when saving goes wrong, on real file systems: a full disk (a small
/// tmpfs) asks cupsd to retry the job later, a read-only one holds it, and in both nothing is
/// left behind; a job saved for a user with an account is that user's file. These are CUPS's
/// backend exit codes (cups/backend.h), which the queue's error policy acts on.
@Suite(.serialized, .enabled(if: geteuid() == 0, "needs root (mounts a small tmpfs; the backend gives files to their owner)"))
struct SpoolBackendFailureTests {
    static let backend = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-backend"

    /// A PDF of several pages, larger than the small file systems below.
    static let pdf: Result<Data, Error> = Result {
        let r = try Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/multilingual.txt", "--copies", "4", "-o", "-"])
        guard r.status == 0 else { throw Failure("convert: \(r.stderr)") }
        return r.stdout
    }

    /// A tmpfs of `size` mounted on a new folder, with `options`; unmounted by `body`'s end.
    func withTmpfs<T>(size: String, options: String = "", _ body: (String) throws -> T) throws -> T {
        let dir = try temporaryDirectory() + "/spool"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // mode=0755: a tmpfs's root is 1777 otherwise, a spool the backend refuses.
        let mount = try Tool.run("mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755" + (options.isEmpty ? "" : "," + options), "tmpfs", dir])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        defer { _ = try? Tool.run("umount", [dir]) }
        return try body(dir)
    }

    @Test func aFullDiskRetriesTheJobLaterAndLeavesNothing() throws {
        let pdf = try Self.pdf.get()
        try withTmpfs(size: "\(max(16, pdf.count / 2048))k") { dir in
            let r = try Tool.run(Self.backend, ["21", "root", "big.txt", "1", ""], stdin: pdf, environment: ["DEVICE_URI": "swiftprint:" + dir])
            #expect(r.status == 6, "CUPS_BACKEND_RETRY: \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("No space left on device") && r.stderr.contains("the job will be retried"), "\(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir + "/root")
            #expect(left.isEmpty, "a half-written file stayed: \(left)")
        }
    }

    @Test func aReadOnlyFolderHoldsTheJob() throws {
        let pdf = try Self.pdf.get()
        try withTmpfs(size: "1m", options: "ro") { dir in
            let r = try Tool.run(Self.backend, ["22", "root", "notes.txt", "1", ""], stdin: pdf, environment: ["DEVICE_URI": "swiftprint:" + dir])
            #expect(r.status == 3, "CUPS_BACKEND_HOLD: \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("Read-only file system") && r.stderr.contains("the job is held"), "\(r.stderr)")
        }
    }

    /// `nobody` is an account on every Debian system: its job is its file, in its folder.
    @Test func theSavedFileIsTheJobOwners() throws {
        let pdf = try Self.pdf.get()
        guard let account = getpwnam("nobody") else { Issue.record("no nobody account"); return }
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        let r = try Tool.run(Self.backend, ["23", "nobody", "mine.txt", "1", ""], stdin: pdf, environment: ["DEVICE_URI": "swiftprint:" + dir])
        #expect(r.status == 0, "\(r.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/nobody/23-mine.txt.pdf")
        #expect((attributes[.ownerAccountID] as? NSNumber)?.uint32Value == account.pointee.pw_uid)
        let folder = try FileManager.default.attributesOfItem(atPath: dir + "/nobody")
        #expect((folder[.ownerAccountID] as? NSNumber)?.uint32Value == account.pointee.pw_uid)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700, "only its owner reads a user's jobs")
    }
}
