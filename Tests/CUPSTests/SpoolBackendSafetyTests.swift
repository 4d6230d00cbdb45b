import CUPSCommon
import Foundation
import Synchronization
import TestSupport
import Testing

/// The device URI, read once: decoded before it is checked, so an encoded `..` is refused like
/// a plain one; the guest account rides in its query and survives escaping.
@Suite struct SpoolDeviceURITests {
    @Test("refused device URIs", arguments: [
        "swiftprint:/var/spool/%2e%2e/%2e%2e/tmp/x", "swiftprint:/var/spool/%2E%2E/x", "swiftprint:/var/spool/../x",
        "swiftprint:relative/folder", "swiftprint:/var/spool/./x", "swiftprint:/var/%00spool", "swiftprint:/var/sp%0aool",
        "swiftprint:/var/%ff%fe", "swiftprint:/var/spool%2", "file:/var/spool/swiftprint", "swiftprint:/x?guest=a/b",
        "swiftprint:/x?guest=", "swiftprint:/x?printer=1",
    ])
    func refused(uri: String) {
        #expect(SpoolDeviceURI(uri) == nil)
    }

    @Test func aFolderAndAGuestReadBackAsWritten() throws {
        let plain = try #require(SpoolDeviceURI("swiftprint:///var/spool/swiftprint"))
        #expect(plain == SpoolDeviceURI(folder: "/var/spool/swiftprint"))
        let spaced = SpoolDeviceURI(folder: "/srv/PDF files/%done", guestAccount: "nobody")
        #expect(spaced.uri == "swiftprint:/srv/PDF%20files/%25done?guest=nobody")
        #expect(SpoolDeviceURI(spaced.uri) == spaced)
    }
}

/// The root backend against the ways it can be turned (run as cupsd runs it: as root, with the
/// device URI, the job's strings and a PDF): a link where the user's folder should be, a spool
/// others may write in, a sender with no account, an encoded `..`, a title of control and
/// bidi characters, two documents of one name at once. Each is refused with a reason for
/// `lpstat -l` and CUPS's exit code, or saved as its owner and nowhere else.
@Suite(.serialized, .enabled(if: geteuid() == 0, "the backend drops root only when it has it; these run it as root, as cupsd does"))
struct SpoolBackendSafetyTests {
    static let backend = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-backend"
    static let pdf: Result<Data, Error> = Result {
        let r = try Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/multilingual.txt", "-o", "-"])
        guard r.status == 0 else { throw Failure("convert: \(r.stderr)") }
        return r.stdout
    }
    static let hold: Int32 = 3, stop: Int32 = 4

    func runBackend(_ job: String, user: String, title: String, uri: String) throws -> Tool.Result {
        try Tool.run(Self.backend, [job, user, title, "1", ""], stdin: Self.pdf.get(), environment: ["DEVICE_URI": uri])
    }

    func owner(_ path: String) throws -> UInt32? {
        (try FileManager.default.attributesOfItem(atPath: path)[.ownerAccountID] as? NSNumber)?.uint32Value
    }

    /// Every file below `folder`, as paths relative to it.
    func tree(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func anEncodedDotDotIsRefusedAndNothingIsWritten() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/spool/a", withIntermediateDirectories: true)
        let r = try runBackend("9", user: "root", title: "evil", uri: "swiftprint:\(dir)/spool/a/%2e%2e/%2e%2e/escaped")
        #expect(r.status == Self.stop, "\(r.stderr)")
        #expect(r.stderr.contains("ERROR: swiftprint: the device URI must be swiftprint:/absolute/folder"), "\(r.stderr)")
        #expect(tree(dir) == ["spool", "spool/a"])
    }

    @Test func aLinkWhereTheUsersFolderShouldBeHoldsTheJob() throws {
        let dir = try temporaryDirectory(), elsewhere = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir + "/nobody", withDestinationPath: elsewhere)
        let r = try runBackend("11", user: "nobody", title: "linked", uri: "swiftprint:" + dir)
        #expect(r.status == Self.hold, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir)/nobody is a link or not a folder; the job is held"), "\(r.stderr)")
        #expect(tree(elsewhere).isEmpty)
        #expect(try owner(elsewhere) == 0, "the link's target was given away")
    }

    @Test func aSpoolOthersMayWriteInStopsTheQueue() throws {
        let dir = try temporaryDirectory()
        chmod(dir, 0o777)
        let r = try runBackend("12", user: "root", title: "open", uri: "swiftprint:" + dir)
        #expect(r.status == Self.stop, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir) may be written by other accounts (mode 777)"), "\(r.stderr)")
        #expect(tree(dir).isEmpty)
        // A parent others may write in, not sticky: someone could put another folder in its place.
        let parent = try temporaryDirectory()
        chmod(parent, 0o777)
        try FileManager.default.createDirectory(atPath: parent + "/spool", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let below = try runBackend("13", user: "root", title: "open", uri: "swiftprint:\(parent)/spool")
        #expect(below.status == Self.stop, "\(below.stderr)")
        #expect(below.stderr.contains("\(parent) may be written by other accounts"), "\(below.stderr)")
        // A spool another account owns.
        let theirs = try temporaryDirectory()
        chown(theirs, getpwnam("nobody").pointee.pw_uid, 0)
        let owned = try runBackend("14", user: "root", title: "theirs", uri: "swiftprint:" + theirs)
        #expect(owned.status == Self.stop && owned.stderr.contains("not to root"), "\(owned.stderr)")
    }

    @Test func aSenderWithNoAccountIsHeldUnlessTheQueueHasAGuestAccount() throws {
        let dir = try temporaryDirectory()
        let held = try runBackend("15", user: "Phone of Ana", title: "boarding pass", uri: "swiftprint:" + dir)
        #expect(held.status == Self.hold, "\(held.stderr)")
        #expect(held.stderr.contains("the sender Phone of Ana has no account on this machine, so the job is held"), "\(held.stderr)")
        #expect(tree(dir).isEmpty)

        let nobody = getpwnam("nobody").pointee.pw_uid
        let saved = try runBackend("16", user: "Phone of Ana", title: "boarding pass", uri: "swiftprint:\(dir)?guest=nobody")
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(tree(dir) == ["Phone of Ana", "Phone of Ana/16-boarding pass.pdf"])
        #expect(try owner(dir + "/Phone of Ana") == nobody && owner(dir + "/Phone of Ana/16-boarding pass.pdf") == nobody)

        let asRoot = try runBackend("17", user: "Phone of Ana", title: "x", uri: "swiftprint:\(dir)?guest=root")
        #expect(asRoot.status == Self.hold && asRoot.stderr.contains("the guest account root named by the queue's device URI is root"), "\(asRoot.stderr)")
        let missing = try runBackend("18", user: "Phone of Ana", title: "x", uri: "swiftprint:\(dir)?guest=no-such-account")
        #expect(missing.status == Self.hold && missing.stderr.contains("does not exist"), "\(missing.stderr)")
    }

    @Test func aFolderOfAnotherAccountIsNeverWrittenIn() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/Guest", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let daemon = try #require(getpwnam("daemon")).pointee.pw_uid
        chown(dir + "/Guest", daemon, 0)
        let r = try runBackend("19", user: "Guest", title: "x", uri: "swiftprint:\(dir)?guest=nobody")
        #expect(r.status == Self.hold && r.stderr.contains("\(dir)/Guest belongs to another account"), "\(r.stderr)")
        #expect(tree(dir) == ["Guest"])
    }

    /// A title can say anything (`lp -t`, a phone's job-name): in the file name its control and
    /// direction characters are gone, and on standard error it cannot start a line of its own,
    /// so it cannot send cupsd an `ATTR:` or `PPD:` message.
    @Test func aTitleOfControlAndBidiCharactersNamesAFileAndInjectsNothing() throws {
        let dir = try temporaryDirectory()
        let title = "inv\u{202E}fdp.exe\u{202C}\nATTR: marker-levels=1\r\u{1B}[2J\u{7}"
        let r = try runBackend("20", user: "root", title: title, uri: "swiftprint:" + dir)
        #expect(r.status == 0, "\(r.stderr)")
        let files = tree(dir + "/root")
        #expect(files.count == 1 && !files[0].unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) }, "\(files)")
        // The raw-file refusal quotes the title.
        let raw = try Tool.run(Self.backend, ["21", "root", title, "1", "", "/etc/hostname"], environment: ["DEVICE_URI": "swiftprint:" + dir])
        let lines = raw.stderr.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("ATTR:") || $0.hasPrefix("PPD:") } && lines.count == 1, "\(lines)")
        #expect(!raw.stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x202A...0x202E).contains($0.value) })
    }

    /// Two backends saving a document of one name at the same moment (cupsd runs one per
    /// queue, but two queues may share a spool): neither replaces the other.
    @Test func twoDocumentsOfOneNameAtOnceAreTwoFiles() throws {
        let dir = try temporaryDirectory()
        let results = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let status = (try? runBackend("30", user: "nobody", title: "same", uri: "swiftprint:" + dir).status) ?? -1
            results.withLock { $0.append(status) }
        }
        #expect(results.withLock { $0 } == [0, 0, 0, 0])
        #expect(tree(dir + "/nobody") == ["30-same (2).pdf", "30-same (3).pdf", "30-same (4).pdf", "30-same.pdf"])
    }
}
