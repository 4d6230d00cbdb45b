import Foundation
import TestSupport
import Testing

/// Outputs that must not move: the SHA-256 of the PDF `swiftprint convert` makes for every
/// example and for a set of option combinations that uses every option value at least once,
/// rendered with the pinned fonts. Output is reproducible byte for byte, so the check is exact;
/// it guards changes of structure (issue 24's redesign), which must not change a byte.
///
/// The hashes hold for the versions of the libraries and fonts they were recorded with
/// (`Identity/versions.txt`): on a machine with other versions the test compares nothing and says
/// so. Record them again (`SWIFTPRINT_RECORD=1`) only for a deliberate change of output, never
/// during a change that must keep it. `SWIFTPRINT_IDENTITY_KEEP=FOLDER` keeps each output there
/// as `NAME.pdf`, to compare two builds' pages when a hash moves on purpose.
@Suite struct OutputIdentityTests {
    static let folder = directory() + "/Identity"

    /// Name, inputs (`Examples/…` or `Identity/…`), options.
    static let cases: [(String, [String], [String])] = [
        // Every example, as it is.
        ("multilingual", ["Examples/multilingual.txt"], []),
        ("notes.md", ["Examples/notes.md"], []),
        ("poster.svg", ["Examples/poster.svg"], []),
        ("report.html", ["Examples/report.html"], []),
        ("server.log", ["Examples/server.log"], []),
        ("shift_jis", ["Examples/shift_jis.txt"], []),
        ("walk.gpx", ["Examples/walk.gpx"], []),
        ("photo.jpg", ["Identity/photo.jpg"], []),
        ("chart.png", ["Identity/chart.png"], []),
        ("pages.pdf", ["Identity/pages.pdf"], []),
        // Text: columns, cpi and lpi, alignment, line breaks, tabs, numbers, header and footer.
        ("text columns", ["Examples/server.log"], ["--columns", "2", "--media", "A4", "--orientation", "landscape"]),
        ("text cpi lpi", ["Examples/server.log"], ["--cpi", "12", "--lpi", "8", "--media", "letter", "--margins", "36,18"]),
        ("text justified", ["Examples/multilingual.txt"], ["--alignment", "justified", "--media", "A6"]),
        ("text centred", ["Examples/multilingual.txt"], ["--alignment", "center", "--media", "A6"]),
        ("text right", ["Examples/multilingual.txt"], ["--alignment", "right"]),
        ("text char breaks", ["Examples/multilingual.txt"], ["--line-break", "char", "--media", "A6"]),
        ("text truncate", ["Examples/multilingual.txt"], ["--line-break", "truncate", "--media", "A6"]),
        ("text clip", ["Examples/multilingual.txt"], ["--no-wrap", "--media", "A6", "--line-numbers"]),
        ("text proportional", ["Examples/multilingual.txt"], ["--font", "DejaVu Serif 11"]),
        ("text proportional cpi", ["Examples/multilingual.txt"], ["--font", "DejaVu Serif 11", "--cpi", "12", "--lpi", "6"]),
        ("text colour numbers", ["Examples/server.log"], ["--color", "#205080", "--line-numbers", "--page-ranges", "2-3"]),
        ("text header footer", ["Examples/server.log"], ["--title", "Nightly", "--header", "{title}|{file}|", "--footer", "||page {page} of {pages}"]),
        ("text encoding", ["Examples/shift_jis.txt"], ["--encoding", "SHIFT_JIS", "--media", "A5"]),
        // Sheets: every n-up count, every layout, every border, booklets, sides, sets, order.
        ("2-up", ["Identity/pages.pdf"], ["--number-up", "2"]),
        ("3-up", ["Identity/pages.pdf"], ["--number-up", "3"]),
        ("4-up", ["Identity/pages.pdf"], ["--number-up", "4", "--page-border", "single"]),
        ("6-up", ["Identity/pages.pdf"], ["--number-up", "6", "--page-border", "single-thick"]),
        ("8-up", ["Identity/pages.pdf"], ["--number-up", "8", "--page-border", "double"]),
        ("9-up", ["Identity/pages.pdf"], ["--number-up", "9", "--page-border", "double-thick"]),
        ("10-up", ["Identity/pages.pdf"], ["--number-up", "10", "--page-border", "none"]),
        ("12-up", ["Identity/pages.pdf"], ["--number-up", "12"]),
        ("15-up", ["Identity/pages.pdf"], ["--number-up", "15"]),
        ("16-up", ["Identity/pages.pdf"], ["--number-up", "16"]),
        ("layout lrbt", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "lrbt"]),
        ("layout rltb", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "rltb"]),
        ("layout rlbt", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "rlbt"]),
        ("layout tblr", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "tblr"]),
        ("layout tbrl", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "tbrl"]),
        ("layout btlr", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "btlr"]),
        ("layout btrl", ["Identity/pages.pdf"], ["--number-up", "4", "--number-up-layout", "btrl"]),
        ("n-up ranges reverse", ["Identity/pages.pdf"], ["--number-up", "2", "--page-ranges", "2-7", "--output-order", "reverse"]),
        ("booklet", ["Identity/pages.pdf"], ["--booklet"]),
        ("booklet signature", ["Identity/pages.pdf"], ["--booklet", "--booklet-signature", "4"]),
        ("duplex copies", ["Examples/server.log", "Identity/pages.pdf"], ["--sides", "two-sided-long-edge", "--copies", "2"]),
        ("short edge uncollated", ["Identity/pages.pdf"], ["--sides", "two-sided-short-edge", "--copies", "2", "--no-collate"]),
        ("odd sides mirrored", ["Identity/pages.pdf"], ["--page-set", "odd", "--mirror"]),
        ("even sides", ["Identity/pages.pdf"], ["--page-set", "even"]),
        ("header on sheet", ["Examples/server.log"], ["--number-up", "2", "--header", "{file}||{page}", "--header-on", "sheet"]),
        // Grey: for PDF, HTML, maps and images.
        ("grey pdf", ["Identity/pages.pdf"], ["--print-color-mode", "monochrome"]),
        ("grey html", ["Examples/report.html"], ["--print-color-mode", "monochrome"]),
        ("grey map", ["Examples/walk.gpx"], ["--output-type", "grayscale"]),
        ("grey photo", ["Identity/photo.jpg"], ["--output-type", "photoGrayscale"]),
        // PDF pages onto paper, and a page with /Rotate.
        ("pdf rotated fit", ["Identity/rotated.pdf"], ["--media", "A4", "--print-scaling", "fit"]),
        ("pdf rotated landscape", ["Identity/rotated.pdf"], ["--media", "A4", "--orientation", "landscape"]),
        ("pdf fill", ["Identity/pages.pdf"], ["--media", "letter", "--print-scaling", "fill"]),
        ("pdf scaling", ["Identity/pages.pdf"], ["--media", "A4", "--scaling", "80", "--position", "top-left"]),
        // Images: resolution, natural size, auto-fit, positions, photo paper, the photo grid.
        ("image ppi", ["Identity/photo.jpg"], ["--ppi", "150", "--print-scaling", "none"]),
        ("image natural", ["Identity/chart.png"], ["--natural-scaling", "150", "--print-scaling", "none", "--position", "bottom-right"]),
        ("image auto-fit", ["Identity/chart.png"], ["--print-scaling", "auto-fit", "--position", "top"]),
        ("image photo paper", ["Identity/photo.jpg"], ["--output-type", "photo"]),
        ("photo grid", ["Identity/photo.jpg", "Identity/chart.png", "Identity/photo.jpg", "Identity/chart.png"],
         ["--photos-per-sheet", "4", "--gutter", "6mm"]),
        // Markup, maps, and a job of every kind.
        ("markdown footer", ["Examples/notes.md"], ["--footer", "{title}||{page}/{pages}", "--media", "A5"]),
        ("map grid", ["Examples/walk.gpx"], ["--map-grid", "auto", "--media", "A5"]),
        ("mixed job", ["Identity/photo.jpg", "Identity/pages.pdf", "Examples/multilingual.txt", "Examples/notes.md"],
         ["--media", "A4", "--footer", "||{page}"]),
    ]

    /// The packages the hashes depend on: drawing, shaping, fonts, assembly, WebKit, decoders.
    static let packages = [
        "libcairo2", "libpango-1.0-0", "libpangocairo-1.0-0", "libpangoft2-1.0-0", "libharfbuzz0b",
        "libharfbuzz-subset0", "libfreetype6", "libfontconfig1", "fontconfig-config", "libqpdf29",
        "libwebkit2gtk-4.1-0", "libmagic1", "libuchardet0", "libjpeg62-turbo", "libpng16-16", "libgdk-pixbuf-2.0-0",
        "librsvg2-2", "libsqlite3-0", "libglib2.0-0", "fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji",
        "fonts-dejavu-core",
    ]

    static func installedVersions() throws -> String {
        let r = try Tool.run("dpkg-query", ["-W", "-f", "${Package} ${Version}\\n"] + packages)
        return r.text.split(separator: "\n").sorted().joined(separator: "\n") + "\n"
    }

    /// The recorded hashes by case name, or why nothing can be compared here.
    static let recorded: Result<[String: String], Comparison> = Result {
        let versions = try installedVersions()
        let want = try String(contentsOfFile: folder + "/versions.txt", encoding: .utf8)
        guard want == versions else { throw Comparison.otherVersions(recorded: want, here: versions) }
        var hashes: [String: String] = [:]
        for line in try String(contentsOfFile: folder + "/outputs.sha256", encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { hashes[String(parts[1])] = String(parts[0]) }
        }
        return hashes
    }.mapError { $0 as? Comparison ?? .unreadable("\($0)") }

    enum Comparison: Error {
        case otherVersions(recorded: String, here: String)
        case unreadable(String)
    }

    static var recording: Bool { ProcessInfo.processInfo.environment["SWIFTPRINT_RECORD"] == "1" }

    @Test(arguments: cases.map(\.0))
    func theOutputHasNotMoved(name: String) throws {
        let (_, inputs, options) = try #require(Self.cases.first { $0.0 == name })
        let root = URL(fileURLWithPath: directory()).deletingLastPathComponent().deletingLastPathComponent().path
        let out = try temporaryDirectory() + "/out.pdf"
        let paths = inputs.map { $0.hasPrefix("Identity/") ? Self.folder + "/" + $0.dropFirst(9) : root + "/" + $0 }
        // (A PDF is dated now unless SOURCE_DATE_EPOCH says otherwise.)
        let r = try swiftprint(["convert"] + paths + ["-o", out, "--quiet"] + options,
                               env: PinnedFonts.environment.merging(["SOURCE_DATE_EPOCH": "0"]) { $1 })
        try #require(r.status == 0, "\(name): \(r.stderr)")
        let hash = try Tool.run("sha256sum", [out]).text.prefix(64)
        // A copy of each output, to compare two builds' by their pages when a hash moves.
        if let keep = ProcessInfo.processInfo.environment["SWIFTPRINT_IDENTITY_KEEP"] {
            try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: keep + "/\(name).pdf")
            try FileManager.default.copyItem(atPath: out, toPath: keep + "/\(name).pdf")
        }
        if Self.recording {
            Self.record(name, String(hash))
            return
        }
        switch Self.recorded {
        case .success(let hashes):
            let want = try #require(hashes[name], "no hash recorded for \(name): record with SWIFTPRINT_RECORD=1")
            #expect(hash == want, "\(name): the output moved (\(options.joined(separator: " ")))")
        case .failure(.otherVersions(let recorded, let here)):
            print("OutputIdentityTests: compared nothing for \(name): the hashes are for other package versions\nrecorded:\n\(recorded)here:\n\(here)")
        case .failure(.unreadable(let why)):
            Issue.record("cannot read the recorded hashes: \(why)")
        }
    }

    /// Streams spliced into the output past qpdf's writer (CQPDFShim/spliced_streams.cpp, 1 MB
    /// and more) change nothing but the document's /ID, which qpdf derives from what it wrote:
    /// every case that places images, and a PDF holding a photo two-up, with every stream
    /// spliced (SWIFTPRINT_SPLICED_STREAM_MINIMUM=0) and without, compared with the /ID blanked.
    /// Needs no recorded hash, so it holds on any machine. (The comparison can fail: the /ID
    /// itself differs.)
    @Test(arguments: ["photo.jpg", "chart.png", "grey photo", "image ppi", "image natural", "image photo paper", "photo grid",
                      "mixed job", "a photo's PDF two-up"])
    func splicingEveryStreamChangesNothingButTheID(name: String) throws {
        let root = URL(fileURLWithPath: directory()).deletingLastPathComponent().deletingLastPathComponent().path
        let dir = try temporaryDirectory()
        let paths: [String], options: [String]
        if let (_, inputs, caseOptions) = Self.cases.first(where: { $0.0 == name }) {
            paths = inputs.map { $0.hasPrefix("Identity/") ? Self.folder + "/" + $0.dropFirst(9) : root + "/" + $0 }
            options = caseOptions
        } else {
            // The photo's streams then come from another document (qpdf copies them).
            let made = try swiftprint(["convert", Self.folder + "/photo.jpg", Self.folder + "/chart.png", "-o", dir + "/photos.pdf"])
            try #require(made.status == 0, "\(made.stderr)")
            (paths, options) = ([dir + "/photos.pdf", Self.folder + "/pages.pdf"], ["--number-up", "2"])
        }
        var outputs: [Data] = []
        for minimum in ["", "0"] {
            let out = dir + "/out\(minimum).pdf"
            let r = try swiftprint(["convert"] + paths + ["-o", out, "--quiet"] + options,
                                   env: PinnedFonts.environment.merging(["SOURCE_DATE_EPOCH": "0", "SWIFTPRINT_SPLICED_STREAM_MINIMUM": minimum]) { $1 })
            try #require(r.status == 0, "\(name): \(r.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0] != outputs[1], "\(name): nothing was spliced")
        #expect(Self.withoutID(outputs[0]) == Self.withoutID(outputs[1]), "\(name): splicing changed more than the /ID")
    }

    /// A PDF's bytes with its trailer's /ID array emptied.
    static func withoutID(_ pdf: Data) -> Data {
        let bytes = [UInt8](pdf), key = Array("/ID [<".utf8)
        guard let start = stride(from: bytes.count - key.count, through: 0, by: -1).first(where: { bytes[$0..<$0 + key.count].elementsEqual(key) }),
              let end = bytes[start...].firstIndex(of: UInt8(ascii: "]")) else {
            return pdf
        }
        return Data(bytes[..<start] + Array("/ID []".utf8) + bytes[(end + 1)...])
    }

    /// Every case has a recorded hash, and every recorded hash a case.
    @Test func theRecordCoversEveryCase() throws {
        guard !Self.recording, case .success(let hashes) = Self.recorded else { return }
        #expect(Set(hashes.keys) == Set(Self.cases.map(\.0)))
        #expect(Set(Self.cases.map(\.0)).count == Self.cases.count, "case names are unique")
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var collected: [String: String] = [:]

    /// Adds a case's hash to the record; the files are rewritten with each, sorted, so that the
    /// last case to finish leaves them whole.
    static func record(_ name: String, _ hash: String) {
        lock.withLock {
            collected[name] = hash
            let lines = collected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            try? (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/outputs.sha256", atomically: false, encoding: .utf8)
            try? installedVersions().write(toFile: folder + "/versions.txt", atomically: false, encoding: .utf8)
        }
    }
}
