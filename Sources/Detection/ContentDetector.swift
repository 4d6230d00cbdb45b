import CMagic
import Foundation
import PrintModel

/// What the detector found out about an input.
public struct DetectedType: Sendable {
    /// libmagic's MIME type for the bytes.
    public let mimeType: String
    /// The content type, when swiftprint knows one for the input.
    public let type: ContentType?
    /// How the type was decided: `libmagic`, `content` (a sniffer looked closer), `extension`, or
    /// `declared` (the sender named it, as CUPS does).
    public let method: String
    /// The first bytes looked at (up to 8 KB), when they were read.
    public var head: Data?

    package init(mimeType: String, type: ContentType?, method: String, head: Data? = nil) {
        self.mimeType = mimeType; self.type = type; self.method = method; self.head = head
    }
}

/// Recognises inputs: libmagic first (its database loaded once per process, on first use; its
/// text patterns asked only of text whose handler they can change, see `libmagicType`), then
/// sniffers where libmagic's answer is generic (plain text that is HTML, JSON that is GeoJSON,
/// XML that is GPX, UTF-16 that libmagic calls CSV), then the file-name extension when it names a
/// more specific type than the bytes did.
// Safe: `cookie`, its one mutable field, is made and used only under `lock`.
public final class ContentDetector: @unchecked Sendable {
    public let catalogue: TypeCatalogue
    // Opened on first use: a CUPS job whose type the sender named never needs it, and its
    // database is ~6 MB of the job's memory. A libmagic cookie serves one caller at a time.
    private var cookie: OpaquePointer?
    private let lock = NSLock()

    /// The process's detector.
    public static let shared = ContentDetector()

    /// Loads libmagic's database for `shared` on another thread now, so that its cost overlaps
    /// other start-up work; the first detection waits for it.
    public static func startLoadingInBackground() {
        Thread.detachNewThread { loadShared() }
    }

    /// Loads libmagic's database for `shared` on the calling thread, if it is not loaded yet
    /// (a failure is reported by the first detection, which tries again).
    public static func loadShared() {
        try? shared.withCookie { _ in }
    }

    public init(catalogue: TypeCatalogue = .standard) {
        self.catalogue = catalogue
    }

    deinit { if let cookie { magic_close(cookie) } }

    /// Whether libmagic's database has been loaded (for tests of the paths that must not).
    package var hasLoadedLibmagic: Bool { lock.withLock { cookie != nil } }

    /// Runs `body` with the libmagic cookie, opening it and loading the database the first time.
    private func withCookie<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        try lock.withLock {
            if cookie == nil {
                guard let opened = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR) else {
                    throw PrintError(.notAvailable, "cannot start libmagic")
                }
                guard magic_load(opened, nil) == 0 else {
                    let message = magic_error(opened).map { String(cString: $0) } ?? "unknown error"
                    magic_close(opened)
                    throw PrintError(.notAvailable, "cannot load libmagic's database: \(message)")
                }
                cookie = opened
            }
            return try body(cookie!)
        }
    }

    /// Detects the type of the file at `path`. A regular file is read once, as much of it as
    /// libmagic would read itself, and each of libmagic's steps looks at those bytes; anything
    /// else (an empty file, a folder, a device) libmagic names from the file system.
    public func detect(path: String) throws -> DetectedType {
        try Self.checkReadable(path)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
            let limit = try withCookie(Self.bytesMax)
            let bytes = try Self.read(path, upTo: min(Int(info.st_size), limit))
            let head = bytes.prefix(8192)
            let mime = try libmagicType(head: head) { cookie in
                bytes.withUnsafeBytes { magic_buffer(cookie, $0.baseAddress, $0.count).map { String(cString: $0) } ?? "application/octet-stream" }
            }
            return classify(mime: mime, head: Data(head), fileExtension: URL(fileURLWithPath: path).pathExtension)
        }
        let head = Self.head(of: path)
        let mime = try libmagicType(head: head) { cookie in
            guard let result = magic_file(cookie, path) else {
                let message = magic_error(cookie).map { String(cString: $0) } ?? "unknown error"
                throw PrintError(.inputUnreadable, path: path, "cannot read the file: \(message)", status: magic_errno(cookie))
            }
            return String(cString: result)
        }
        return classify(mime: mime, head: head, fileExtension: URL(fileURLWithPath: path).pathExtension)
    }

    /// How many bytes of a file libmagic reads (its `bytes_max`).
    private static func bytesMax(_ cookie: OpaquePointer) -> Int {
        var value = 0
        return magic_getparam(cookie, MAGIC_PARAM_BYTES_MAX, &value) == 0 && value > 0 ? value : 1 << 20
    }

    /// Up to `count` bytes from the start of the file at `path`.
    private static func read(_ path: String, upTo count: Int) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot open the file", errno: errno)
        }
        defer { try? handle.close() }
        do { return try handle.read(upToCount: count) ?? Data() } catch {
            throw PrintError(.inputUnreadable, path: path, "cannot read the file: \(error.localizedDescription)")
        }
    }

    /// Detects the type of `data`, with an optional file name for its extension.
    public func detect(data: Data, name: String? = nil) throws -> DetectedType {
        let head = data.prefix(8192)
        let mime = try libmagicType(head: head) { cookie in
            data.withUnsafeBytes { bytes in
                magic_buffer(cookie, bytes.baseAddress, bytes.count).map { String(cString: $0) } ?? "application/octet-stream"
            }
        }
        return classify(mime: mime, head: head, fileExtension: name.map { URL(fileURLWithPath: $0).pathExtension } ?? "")
    }

    /// libmagic's MIME type for an input, asked in up to three steps (`ask` runs libmagic on the
    /// input under the flags of each step):
    /// 1. its binary patterns: every format with a signature, and its JSON and CSV checks;
    /// 2. for an input none of them matched, whether it is text (no patterns);
    /// 3. for text that starts with markup (`<`) or holds a PDF header in its first kilobyte, its
    ///    text patterns: HTML, SVG, XML, a PDF behind a line of junk.
    ///
    /// The text patterns are left out for other text because their cost is out of proportion:
    /// libmagic 5.44 compiles their ~35 regular expressions on every call (~4 ms and 2 MB, most
    /// of a one-line job's detection), and what they name besides these (shell scripts, C,
    /// troff, mail) is printed as plain text all the same: only these change the handler.
    private func libmagicType(head: Data, _ ask: (OpaquePointer) throws -> String) throws -> String {
        try withCookie { cookie in
            let base = MAGIC_MIME_TYPE | MAGIC_ERROR
            defer { magic_setflags(cookie, base) }
            magic_setflags(cookie, base | MAGIC_NO_CHECK_TEXT)
            let binary = try ask(cookie)
            guard binary == "application/octet-stream" else { return binary }
            magic_setflags(cookie, base | MAGIC_NO_CHECK_SOFT)
            let text = try ask(cookie)
            guard text.hasPrefix("text/"), Self.startsWithMarkup(head) || Self.holdsPDFHeader(head) else { return text }
            magic_setflags(cookie, base)
            return try ask(cookie)
        }
    }

    /// Whether `%PDF-` occurs in the first kilobyte, where PDF readers look for the header.
    static func holdsPDFHeader(_ head: Data) -> Bool {
        head.prefix(1024).firstRange(of: Data("%PDF-".utf8)) != nil
    }

    /// Whether the first character, after a UTF-8 byte-order mark and white space, is `<`.
    static func startsWithMarkup(_ head: Data) -> Bool {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0x0C].contains($0) } == UInt8(ascii: "<")
    }

    /// What an input whose sender named its type (`mime`, as CUPS does) is, looking only at its
    /// first bytes: the sniffers may narrow the sender's type (JSON that is GeoJSON, XML that is
    /// GPX), and libmagic is not asked. The name is not read: under CUPS it is the job's title,
    /// which says nothing the sender's type does not (`lp -o document-format=text/plain
    /// notes.md` asks for the source, not the rendered Markdown).
    public func refine(declared mime: String, input: PrintInput) throws -> DetectedType {
        let head: Data
        if let data = input.data {
            head = data.prefix(8192)
        } else {
            try Self.checkReadable(input.path)
            head = Self.head(of: input.path)
        }
        return classify(mime: mime, head: head, fileExtension: "")
    }

    /// Says why a file cannot be read in the system's words, before libmagic words it its way.
    private static func checkReadable(_ path: String) throws {
        if access(path, R_OK) != 0, path.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.-]*:\/\//) != nil {
            throw PrintError(.inputUnreadable, path: path, "is an address, and swiftprint prints files: download it first (curl -O, wget)")
        }
        if access(path, R_OK) != 0 {
            throw PrintError.system(.inputUnreadable, path: path, "cannot open the file", errno: errno)
        }
    }

    func classify(mime: String, head: Data, fileExtension: String) -> DetectedType {
        var type = catalogue.type(forMIME: mime)
        var method = "libmagic"
        if let sniffed = ContentSniffer.sniff(head: head, libmagicType: type?.identifier, mime: mime),
           let t = catalogue.type(sniffed), sniffed != type?.identifier {
            type = t
            method = "content"
        }
        if !fileExtension.isEmpty, let byExtension = catalogue.type(forExtension: fileExtension),
           byExtension.identifier != type?.identifier {
            // The extension may only narrow what the bytes say (a .md file that is plain text),
            // or name a type the bytes left open (an SQLite file that is MBTiles).
            if let current = type {
                if catalogue.conforms(byExtension.identifier, to: current.identifier) { type = byExtension; method = "extension" }
            } else if mime != "inode/x-empty" {
                type = byExtension
                method = "extension"
            }
        }
        // A type the content or the extension found is named by its own MIME type, not by
        // libmagic's guess (which calls Apple raster application/octet-stream).
        let named = method == "libmagic" ? mime : type?.mimeTypes.first ?? mime
        return DetectedType(mimeType: named, type: type, method: method, head: head)
    }

    /// The first 8 KB of the file, what detection reads (empty when it cannot be read).
    package static func head(of path: String) -> Data {
        (try? read(path, upTo: 8192)) ?? Data()
    }
}

/// Looks closer where libmagic's answer is generic.
enum ContentSniffer {
    static func sniff(head: Data, libmagicType: String?, mime: String) -> String? {
        let bytes = [UInt8](head.prefix(4096))
        // Raster streams: libmagic 5.44 calls Apple and PWG raster data (or, when they look
        // like it, text).
        if let raster = rasterType(bytes) { return raster }
        // UTF-16 text with a byte-order mark: libmagic may call it CSV or data, and its markup
        // (a GPX track, a page) is read from the decoded text.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let bigEndian = bytes[0] == 0xFE
            // Whole code units only: the head may end in the middle of one.
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { (i: Int) -> UInt16 in
                let high = UInt16(bytes[bigEndian ? i : i + 1]), low = UInt16(bytes[bigEndian ? i + 1 : i])
                return high << 8 | low
            }
            // What the readers of those types decode from UTF-16 (GPXReader, WebKit, librsvg).
            let sniffed = sniffText(String(decoding: units, as: UTF16.self))
            return ["com.topografix.gpx", "public.html", "public.svg-image"].contains(sniffed) ? sniffed : "public.plain-text"
        }
        let textual = libmagicType.map { ["public.plain-text", "public.text", "public.json", "public.xml", "public.html",
                                          "public.comma-separated-values-text"].contains($0) } ?? false
        guard textual || mime.hasPrefix("text/") else { return nil }
        return sniffText(String(decoding: bytes, as: UTF8.self))
    }

    /// What text's first characters say it is: a page, a GPX track, an SVG drawing, a map
    /// description, GeoJSON; nil for anything else.
    static func sniffText(_ decoded: String) -> String? {
        let text = decoded.lowercased()
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { return "public.html" }
        if start.hasPrefix("<?xml") || start.hasPrefix("<gpx") {
            // XHTML (git's and DocBook's manuals): libmagic calls it XML, which printed its source.
            if text.contains("<!doctype html") || rootElement(of: start) == "html" { return "public.html" }
            if text.contains("<gpx") { return "com.topografix.gpx" }
            if text.contains("<svg") { return "public.svg-image" }
            return nil
        }
        if start.hasPrefix("{"), text.contains("\"swiftprint-map\"") { return "org.swiftprint.map-description" }
        if start.hasPrefix("{"), text.contains("\"type\""),
           ["\"featurecollection\"", "\"feature\"", "\"linestring\"", "\"polygon\"", "\"multipolygon\"", "\"point\""].contains(where: text.contains) {
            return "public.geojson"
        }
        return nil
    }

    /// The name of an XML document's first element (lowercased, as `text` is), past its
    /// declaration, processing instructions, comments and document type; nil if none is read.
    static func rootElement(of text: Substring) -> String? {
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("!--") {
                guard let end = rest.range(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("?") || rest.hasPrefix("!") {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                rest = rest[rest.index(after: end)...]
            } else {
                let name = rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
                // A namespace prefix (`<h:html`) names the same element.
                return name.split(separator: ":").last.map(String.init)
            }
        }
        return nil
    }

    /// Apple raster starts `UNIRAST\0`; PWG raster `RaS2PwgRaster\0`; CUPS raster with its
    /// sync word in either byte order (v1 `RaSt`, v2 `RaS2`, v3 `RaS3`).
    static func rasterType(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: Array("UNIRAST\0".utf8)) { return "com.apple.urf" }
        if bytes.starts(with: Array("RaS2PwgRaster\0".utf8)) { return "org.pwg.raster" }
        let sync = Array(bytes.prefix(4))
        if ["RaSt", "tSaR", "RaS2", "2SaR", "RaS3", "3SaR"].contains(where: { Array($0.utf8) == sync }) { return "org.cups.raster" }
        return nil
    }
}
