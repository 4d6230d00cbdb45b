import Foundation
import Hummingbird
import PrintModel

/// Files dropped onto the page, kept in a folder only this user can open until they are
/// printed, removed from the page, or the Print Center stops. A file is known by a random id,
/// never by a name the browser sent: the name is shown, and used as the job's title, but no
/// request can make the server open a path of its choosing.
actor CenterUploads {
    struct Upload: Sendable {
        let id: String
        /// As the browser named it, reduced to a last path component (`CenterUploads.shownName`):
        /// shown, and the job's title.
        let name: String
        /// Where it is kept: `folder/id/document.EXT`, the name's extension kept for detection.
        let path: String
    }

    /// A file larger than this is refused (413) as it arrives, and nothing of it is kept.
    static let defaultLimit = 256 << 20

    let folder: String
    let limit: Int
    private var uploads: [String: Upload] = [:]

    init(limit: Int = CenterUploads.defaultLimit) throws {
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((temporary + "/swiftprint-center-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw PrintError(.outputFailed, "cannot make a private folder for uploads: \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        self.limit = limit
    }

    /// What a file name from the browser becomes: its last component (after `/` or `\`), without
    /// control characters or leading dots, at most 120 characters; `file` when nothing is left.
    static func shownName(_ given: String) -> String {
        let last = given.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var name = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
        while name.hasPrefix(".") { name.removeFirst() }
        name = String(name.prefix(120))
        return name.trimmingCharacters(in: .whitespaces).isEmpty ? "file" : name
    }

    /// The name it is kept under: `document`, with the shown name's extensions (letters and
    /// digits only, `notes.md` → `document.md`, `walk.map.json` → `document.map.json`), which
    /// detection reads for some types. Never a name that starts like an option or holds a path.
    static func storedName(_ shown: String) -> String {
        let parts = shown.split(separator: ".").dropFirst().map { $0.filter { $0.isASCII && ($0.isLetter || $0.isNumber) } }.filter { !$0.isEmpty }
        return (["document"] + parts.suffix(2).map { String($0.prefix(12)) }).joined(separator: ".")
    }

    /// Keeps `body` as a new upload; past `limit` bytes it stops reading, removes what it wrote
    /// and throws `tooLarge`.
    func store<Body: AsyncSequence>(name given: String, body: Body) async throws -> Upload where Body.Element == ByteBuffer {
        let id = String(CenterAccess.newToken().prefix(16))
        let directory = folder + "/" + id
        guard mkdir(directory, 0o700) == 0 else { throw PrintError(.outputFailed, "cannot keep the upload: \(String(cString: strerror(errno)))") }
        let name = Self.shownName(given)
        let upload = Upload(id: id, name: name, path: directory + "/" + Self.storedName(name))
        let fd = open(upload.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PrintError(.outputFailed, "cannot keep the upload: \(String(cString: strerror(errno)))") }
        var written = 0
        do {
            defer { close(fd) }
            for try await chunk in body {
                written += chunk.readableBytes
                guard written <= limit else { throw UploadError.tooLarge(limit: limit) }
                try chunk.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                        guard n > 0 else { throw PrintError(.outputWriteFailed, "cannot keep the upload: \(String(cString: strerror(errno)))") }
                        offset += n
                    }
                }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        uploads[id] = upload
        return upload
    }

    func upload(_ id: String) -> Upload? { uploads[id] }

    func remove(_ id: String) {
        guard let upload = uploads.removeValue(forKey: id) else { return }
        try? FileManager.default.removeItem(atPath: (upload.path as NSString).deletingLastPathComponent)
    }

    /// At the end: nothing of the user's files stays behind.
    nonisolated func removeAll() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    enum UploadError: Error {
        case tooLarge(limit: Int)
    }
}
