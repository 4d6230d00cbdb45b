import Foundation

/// Runs programs and reads PDFs back with poppler's tools, for the tests.
public enum Tool {
    public struct Result {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` (a path, or a name looked up in PATH) and waits for it.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                           environment: [String: String] = [:], in directory: String? = nil) throws -> Result {
        let p = Process()
        if executable.contains("/") {
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = arguments
        } else {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = [executable] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        p.environment = env
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin == nil ? FileHandle.nullDevice : inp
        try p.run()
        if let stdin {
            // A child may stop reading early (a backend that cannot write): its closed pipe is an
            // error to ignore here, not a SIGPIPE that ends the test run.
            _ = ignoreBrokenPipes
            DispatchQueue.global().async { try? inp.fileHandleForWriting.write(contentsOf: stdin); try? inp.fileHandleForWriting.close() }
        }
        // Read both pipes concurrently so a chatty child never blocks.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The peak memory (resident set, in MB) of `executable` run with `arguments` and of the
    /// children it waited for, from wait4; it must exit 0. Its output is thrown away.
    public static func peakMegabytes(_ executable: String, _ arguments: [String]) throws -> Double {
        let measure = """
            import os, subprocess, sys
            p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(p.pid, 0)
            print(usage.ru_maxrss if status == 0 else "failed " + p.stderr.read().decode())
            """
        let r = try run("python3", ["-c", measure, executable] + arguments)
        let text = r.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let kilobytes = Double(text) else {
            throw NSError(domain: "Tool.peakMegabytes", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(executable): \(text) \(r.stderr)"])
        }
        return kilobytes / 1024
    }

    /// An executable `swift test` built beside the test bundle (the examples).
    public static func besideTests(_ name: String) -> String {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return exe.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The swiftprint binary under test: $SWIFTPRINT_BIN (scripts/test sets it to the release
    /// build), else the one built beside the tests.
    public static var swiftprint: String {
        if let bin = ProcessInfo.processInfo.environment["SWIFTPRINT_BIN"] { return bin }
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return exe.deletingLastPathComponent().appendingPathComponent("swiftprint").path
    }
}

/// What poppler reads from a PDF.
public enum PDF {
    public static func pageCount(_ path: String) throws -> Int {
        let info = try Tool.run("pdfinfo", [path]).text
        return Int(field("Pages", in: info) ?? "") ?? -1
    }

    /// Each page's size in points, from `pdfinfo -l`.
    public static func pageSizes(_ path: String) throws -> [(width: Double, height: Double)] {
        let info = try Tool.run("pdfinfo", ["-f", "1", "-l", "9999", path]).text
        return info.split(separator: "\n").compactMap { line -> (Double, Double)? in
            guard line.hasPrefix("Page"), line.contains("size:") else { return nil }
            let parts = line.split(separator: " ")
            guard let i = parts.firstIndex(of: "size:"), parts.count > i + 3,
                  let w = Double(parts[i + 1]), let h = Double(parts[i + 3]) else { return nil }
            return (w, h)
        }
    }

    public static func info(_ path: String, _ key: String) throws -> String? {
        field(key, in: try Tool.run("pdfinfo", [path]).text)
    }

    /// The text of pages `first`…`last` (all when nil), in reading order.
    public static func text(_ path: String, first: Int? = nil, last: Int? = nil) throws -> String {
        var args: [String] = []
        if let first { args += ["-f", String(first)] }
        if let last { args += ["-l", String(last)] }
        return try Tool.run("pdftotext", args + [path, "-"]).text
    }

    /// Words with their boxes (points, top-left origin) on page `page`.
    public static func words(_ path: String, page: Int) throws -> [(word: String, xMin: Double, yMin: Double, xMax: Double, yMax: Double)] {
        let html = try Tool.run("pdftotext", ["-bbox", "-f", String(page), "-l", String(page), path, "-"]).text
        return html.split(separator: "\n").compactMap { line in
            guard line.contains("<word ") else { return nil }
            func attr(_ name: String) -> Double? {
                guard let r = line.range(of: "\(name)=\"") else { return nil }
                return Double(line[r.upperBound...].prefix { $0 != "\"" })
            }
            // The word follows its tag's ">"; text holding ">" itself comes escaped.
            guard let x0 = attr("xMin"), let y0 = attr("yMin"), let x1 = attr("xMax"), let y1 = attr("yMax"),
                  let s = line.range(of: "\">"), let e = line.range(of: "</word>", options: .backwards),
                  s.upperBound <= e.lowerBound else { return nil }
            return (String(line[s.upperBound..<e.lowerBound]), x0, y0, x1, y1)
        }
    }

    /// The link annotations, from qpdf's JSON: each one's box (`/Rect`, points from the bottom
    /// left), its URI or the index of the page it goes to.
    public static func links(_ path: String) throws -> [(box: [Double], uri: String?, page: Int?)] {
        let json = try Tool.run("qpdf", ["--json", "--json-key=qpdf", "--json-key=pages", path]).stdout
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let objects = (root["qpdf"] as? [Any])?.last as? [String: Any],
              let pageList = root["pages"] as? [[String: Any]] else { return [] }
        let pages = pageList.map { $0["object"] as? String ?? "" }
        return objects.values.compactMap { object in
            guard let value = (object as? [String: Any])?["value"] as? [String: Any], value["/Subtype"] as? String == "/Link" else { return nil }
            let uri = ((value["/A"] as? [String: Any])?["/URI"] as? String).map { String($0.dropFirst(2)) }
            let page = ((value["/Dest"] as? [Any])?.first as? String).flatMap { pages.firstIndex(of: $0) }
            return ((value["/Rect"] as? [Double]) ?? [], uri, page)
        }
    }

    /// The boxes of the link annotations each page holds (by page, from 0).
    public static func linkBoxesByPage(_ path: String) throws -> [Int: [[Double]]] {
        let json = try Tool.run("qpdf", ["--json", "--json-key=qpdf", "--json-key=pages", path]).stdout
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let objects = (root["qpdf"] as? [Any])?.last as? [String: Any],
              let pageList = root["pages"] as? [[String: Any]] else { return [:] }
        var boxes: [Int: [[Double]]] = [:]
        for (index, page) in pageList.enumerated() {
            guard let object = page["object"] as? String,
                  let value = (objects["obj:" + object] as? [String: Any])?["value"] as? [String: Any] else { continue }
            for annotation in value["/Annots"] as? [String] ?? [] {
                guard let a = (objects["obj:" + annotation] as? [String: Any])?["value"] as? [String: Any],
                      a["/Subtype"] as? String == "/Link", let rect = a["/Rect"] as? [Double] else { continue }
                boxes[index, default: []].append(rect)
            }
        }
        return boxes
    }

    /// Page `page` rasterised in grey at `dpi`: width, height and one byte per pixel.
    public static func grayPixels(_ path: String, page: Int, dpi: Int = 50) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let pgm = try Tool.run("pdftoppm", ["-gray", "-r", String(dpi), "-f", String(page), "-l", String(page), path]).stdout
        return try PGM.decode(pgm)
    }

    /// Mean absolute difference (0–255) between two grey renderings, over the area they share.
    public static func meanDifference(_ a: (width: Int, height: Int, pixels: [UInt8]), _ b: (width: Int, height: Int, pixels: [UInt8])) -> Double {
        let w = min(a.width, b.width), h = min(a.height, b.height)
        var total = 0
        for y in 0..<h { for x in 0..<w { total += abs(Int(a.pixels[y * a.width + x]) - Int(b.pixels[y * b.width + x])) } }
        return Double(total) / Double(max(1, w * h))
    }

    private static func field(_ key: String, in info: String) -> String? {
        for line in info.split(separator: "\n") where line.hasPrefix(key + ":") {
            return line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}

/// Binary PGM (P5), the format pdftoppm writes for grey pages; golden images are kept in it.
public enum PGM {
    public struct Error: Swift.Error {}

    public static func decode(_ data: Data) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let bytes = [UInt8](data)
        var fields: [String] = [], i = 0, current = ""
        while fields.count < 4, i < bytes.count {
            let c = bytes[i]; i += 1
            if c == 0x23 { while i < bytes.count, bytes[i] != 0x0A { i += 1 }; continue }
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else { current.append(Character(Unicode.Scalar(c))) }
        }
        guard fields.count == 4, fields[0] == "P5", let w = Int(fields[1]), let h = Int(fields[2]),
              bytes.count - i >= w * h else { throw Error() }
        return (w, h, Array(bytes[i..<(i + w * h)]))
    }

    public static func encode(width: Int, height: Int, pixels: [UInt8]) -> Data {
        Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)
    }
}

/// Binary PPM (P6), what pdftoppm writes for colour pages.
public enum PPM {
    /// Width, height and three bytes a pixel (red, green, blue).
    public static func decode(_ data: Data) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let bytes = [UInt8](data)
        var fields: [String] = [], i = 0, current = ""
        while fields.count < 4, i < bytes.count {
            let c = bytes[i]; i += 1
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else { current.append(Character(Unicode.Scalar(c))) }
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]),
              bytes.count - i >= w * h * 3 else { throw PGM.Error() }
        return (w, h, Array(bytes[i..<(i + w * h * 3)]))
    }
}

/// PWG raster (PWG 5102.4), read the plain way a test can trust: the pages of a stream, each
/// with its width, height and samples (bytes a pixel: the header's bits a pixel ÷ 8), the
/// run-length coding undone (128 fills the rest of a line with white: no ink for black and
/// CMYK, full light for the others).
public enum PWGRaster {
    public struct Error: Swift.Error, CustomStringConvertible { public let description: String }

    public static func pages(_ data: Data) throws -> [(width: Int, height: Int, bytesPerPixel: Int, pixels: [UInt8])] {
        let bytes = [UInt8](data)
        guard bytes.count >= 4, bytes[0..<4] == [0x52, 0x61, 0x53, 0x32] else { throw Error(description: "not PWG raster (no RaS2)") }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var pages: [(Int, Int, Int, [UInt8])] = [], at = 4
        while at < bytes.count {
            guard at + 1796 <= bytes.count else { throw Error(description: "a header cut short at byte \(at)") }
            let width = word(at + 372), height = word(at + 376), bytesPerPixel = word(at + 388) / 8, lineBytes = word(at + 392)
            let white: UInt8 = [3, 6].contains(word(at + 400)) ? 0 : 0xFF
            at += 1796
            var pixels = [UInt8](), y = 0
            pixels.reserveCapacity(lineBytes * height)
            while y < height {
                guard at < bytes.count else { throw Error(description: "page \(pages.count + 1) cut short at row \(y)") }
                let repeats = Int(bytes[at]) + 1; at += 1
                var line = [UInt8]()
                while line.count < lineBytes {
                    guard at < bytes.count else { throw Error(description: "row \(y) cut short") }
                    let n = Int(bytes[at]); at += 1
                    if n == 128 {
                        line += [UInt8](repeating: white, count: lineBytes - line.count)
                        break
                    }
                    let count = n < 128 ? bytesPerPixel : (257 - n) * bytesPerPixel
                    guard at + count <= bytes.count else { throw Error(description: "row \(y) cut short") }
                    if n < 128 {
                        for _ in 0...n { line += bytes[at..<at + count] }
                    } else {
                        line += bytes[at..<at + count]
                    }
                    at += count
                }
                for _ in 0..<repeats { pixels += line.prefix(lineBytes) }
                y += repeats
            }
            pages.append((width, height, bytesPerPixel, pixels))
        }
        return pages
    }
}

/// A fresh temporary folder for one test, inside the test process's own folder, which goes when
/// the process exits. (`scripts/test` also gives the run a TMPDIR of its own and removes it,
/// with whatever the programs the tests start leave there.)
/// Its path is short: a Unix socket made in it (the shared markup renderer's) must fit in 108 bytes.
public func temporaryDirectory() throws -> String {
    var bytes = Array((TestRun.root + "/XXXXXX").utf8CString)
    guard let made = mkdtemp(&bytes) else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    chmod(made, 0o755)
    return String(cString: made)
}

/// The test process's own temporary folder.
public enum TestRun {
    /// Made on first use, open to the CUPS tests' filters (which run as lp); removed with all it
    /// holds when the process exits.
    public static let root: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var bytes = Array((base + "/swiftprint-tests-XXXXXX").utf8CString)
        guard let made = mkdtemp(&bytes) else { fatalError("cannot make a folder in \(base): \(String(cString: strerror(errno)))") }
        chmod(made, 0o755)
        rootForExit = strdup(made)
        atexit {
            guard let root = rootForExit else { return }
            try? FileManager.default.removeItem(atPath: String(cString: root))
        }
        return String(cString: made)
    }()
}

/// The run's folder as C text, for the exit handler (which captures nothing).
nonisolated(unsafe) private var rootForExit: UnsafeMutablePointer<CChar>?

/// The fonts the tests render with: exactly the font packages `scripts/apt-packages.txt`
/// installs for swiftprint (its lines before the tests' section), through a fontconfig file
/// that accepts their font files and no others and leaves out the user's and the machine's own
/// settings. Extra fonts on a machine (fonts-urw-base35 and fonts-dejavu-extra come with
/// Ghostscript and cups-filters, and the tests' section installs them for that reason) then
/// cannot change what the golden images show.
public enum PinnedFonts {
    /// `FONTCONFIG_FILE` for a process that renders with the pinned fonts.
    public static var environment: [String: String] {
        get throws { ["FONTCONFIG_FILE": try file.get()] }
    }

    /// The font files of the pinned packages.
    public static var fontFiles: [String] { get throws { try packages.get().fonts } }

    /// A fontconfig file like the pinned one that also scans `directory` and accepts the font
    /// files `alsoAccepted` besides the pinned ones.
    public static func configuration(scanning directory: String, alsoAccepted: [String]) throws -> String {
        let dir = try temporaryDirectory()
        let path = dir + "/fonts.conf"
        try write(try packages.get(), extraDirectory: directory, extraAccepted: alsoAccepted, cache: dir + "/cache", to: path)
        return path
    }

    private static let packages: Result<(fonts: [String], settings: [String]), Error> = Result {
        let list = try String(contentsOfFile: directory() + "/../../scripts/apt-packages.txt", encoding: .utf8)
        var names: [String] = []
        for line in list.split(separator: "\n") {
            if line.hasPrefix("# Tests:") { break }
            if line.hasPrefix("fonts-") { names.append(line.trimmingCharacters(in: .whitespaces)) }
        }
        var fonts: [String] = [], settings: [String] = []
        // fontconfig's own settings, less the user's (50-user) and the machine's (51-local).
        for name in ["fontconfig-config"] + names {
            let files = try Tool.run("dpkg", ["-L", name])
            guard files.status == 0 else { throw PinError(message: "\(name) is not installed (scripts/setup installs it)") }
            for path in files.text.split(separator: "\n").map(String.init) {
                if [".ttf", ".otf", ".ttc"].contains(where: path.hasSuffix) { fonts.append(path) }
                let base = (path as NSString).lastPathComponent
                if name == "fontconfig-config", path.hasPrefix("/etc/fonts/conf.d/"), path.hasSuffix(".conf"),
                   !base.hasPrefix("50-user"), !base.hasPrefix("51-local") {
                    settings.append(path)
                }
                // A font package's settings, where Debian turned them on.
                if name != "fontconfig-config", path.contains("/conf.avail/"), path.hasSuffix(".conf"),
                   FileManager.default.fileExists(atPath: "/etc/fonts/conf.d/" + base) {
                    settings.append("/etc/fonts/conf.d/" + base)
                }
            }
        }
        return (fonts, settings)
    }

    private static let file: Result<String, Error> = Result {
        let dir = try temporaryDirectory()
        try write(try packages.get(), extraDirectory: nil, extraAccepted: [], cache: dir + "/cache", to: dir + "/fonts.conf")
        return dir + "/fonts.conf"
    }

    private static func write(_ set: (fonts: [String], settings: [String]), extraDirectory: String?, extraAccepted: [String],
                              cache: String, to path: String) throws {
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n"
        for dir in Set(set.fonts.map { ($0 as NSString).deletingLastPathComponent }).sorted() { xml += "  <dir>\(escaped(dir))</dir>\n" }
        if let extraDirectory { xml += "  <dir>\(escaped(extraDirectory))</dir>\n" }
        xml += "  <cachedir>/var/cache/fontconfig</cachedir>\n  <cachedir>\(escaped(cache))</cachedir>\n"
        for file in set.settings { xml += "  <include ignore_missing=\"yes\">\(escaped(file))</include>\n" }
        // Other files in the same folders (another package's) are refused.
        xml += "  <selectfont>\n    <rejectfont><glob>/*</glob></rejectfont>\n    <acceptfont>\n"
        for font in set.fonts + extraAccepted { xml += "      <glob>\(escaped(font))</glob>\n" }
        xml += "    </acceptfont>\n  </selectfont>\n</fontconfig>\n"
        try xml.write(toFile: path, atomically: false, encoding: .utf8)
    }

    struct PinError: Error, CustomStringConvertible { var message: String; var description: String { message } }
}

/// The folder of the test file calling this (for fixtures and golden files beside the tests).
public func directory(of file: StaticString = #filePath) -> String {
    URL(fileURLWithPath: "\(file)").deletingLastPathComponent().path
}

/// A PWG raster stream's first page header, read from the bytes (PWG raster is big-endian;
/// offsets are cups_page_header2_t's, after the 4-byte sync word).
public struct PWGHeader {
    public let bytes: [UInt8]
    public init(_ data: Data) { bytes = [UInt8](data.prefix(1800)) }
    public func word(_ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
    public var resolution: (Int, Int) { (word(4 + 276), word(4 + 280)) }
    public var duplex: Int { word(4 + 272) }
    public var tumble: Int { word(4 + 368) }
    public var width: Int { word(4 + 372) }
    public var height: Int { word(4 + 376) }
    public var bitsPerColor: Int { word(4 + 384) }
    public var colorSpace: Int { word(4 + 400) }
    public var totalPageCount: Int { word(4 + 452) }
    public var pageSizeName: String { String(decoding: bytes[(4 + 1732)..<(4 + 1796)].prefix { $0 != 0 }, as: UTF8.self) }
}

/// Whether the tests run under a sanitizer (scripts/sanitize sets SWIFTPRINT_SANITIZER): its
/// shadow memory makes peaks of memory mean nothing, so the tests that measure one are skipped.
public enum Sanitizer {
    public static var isOn: Bool { ProcessInfo.processInfo.environment["SWIFTPRINT_SANITIZER"] != nil }

    /// How many times longer a test waits for work in another process: a sanitized swiftprint
    /// runs several times slower (ASan about 3×, TSan up to 15× on the markup helper), and a job
    /// through cupsd runs several sanitized programs in turn.
    public static var patience: Double { isOn ? 8 : 1 }

    /// The environment a sanitized program started where the tests' environment does not reach
    /// (cupsd clears it for its filters and backends) needs: its sanitizer's options, with its
    /// reports written under `SWIFTPRINT_SANITIZER_REPORTS`, where scripts/sanitize counts them.
    public static var childEnvironment: [String: String] {
        let env = ProcessInfo.processInfo.environment
        guard isOn, let reports = env["SWIFTPRINT_SANITIZER_REPORTS"] else { return [:] }
        var result = ["SWIFT_BACKTRACE": "enable=no"]
        for (name, tool) in [("ASAN_OPTIONS", "asan"), ("UBSAN_OPTIONS", "ubsan"), ("TSAN_OPTIONS", "tsan")] {
            result[name] = [env[name], "log_path=\(reports)/\(tool)"].compactMap { $0 }.joined(separator: ":")
        }
        return result
    }
}
