import Foundation
import TestSupport
import Testing

/// libSwiftPrintWebPrintDeflate.so (issue 40): preloaded into WebKit's web process so that its
/// prints' fonts and pages are stored, not compressed, since swiftprint compresses them again.
/// Each print took three quarters of its time compressing whole fonts.
@Suite(.serialized) struct WebPrintDeflateTests {
    /// The library beside the swiftprint under test, as swiftprint-markup finds it.
    static var library: String {
        (SpareRendererTests.helper as NSString).deletingLastPathComponent + "/libSwiftPrintWebPrintDeflate.so"
    }

    /// A program that compresses 100000 bytes through the system's zlib (perl's Compress::Zlib):
    /// about 200 bytes out on its own, more than 100000 (stored) with the library preloaded.
    @Test func theLibraryStoresWhatZlibIsAskedToCompress() throws {
        let script = #"use Compress::Zlib; print length(compress("a" x 100000, 9));"#
        let plain = try Tool.run("perl", ["-e", script])
        let preloaded = try Tool.run("perl", ["-e", script], environment: ["LD_PRELOAD": Self.library])
        #expect(plain.status == 0 && preloaded.status == 0, "\(plain.stderr) \(preloaded.stderr)")
        #expect((Int(plain.text) ?? .max) < 1000, "\(plain.text)")
        #expect((Int(preloaded.text) ?? 0) > 100_000, "\(preloaded.text) \(preloaded.stderr)")
    }

    /// The web process a renderer starts has the library loaded, though it runs in WebKit's
    /// sandbox, from the build tree as from an installation.
    @Test func webKitsWebProcessHasItLoaded() throws {
        let runtime = try temporaryDirectory()
        let spare = try SpareRendererTests.startSpare(runtime: runtime)
        defer { SpareRendererTests.stop(spare) }
        let group = spare.processIdentifier
        let webProcesses = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { entry in
            guard entry.first?.isNumber == true,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[2]) == group && stat.contains("(WebKitWebProces")
        }
        try #require(!webProcesses.isEmpty, "no web process in the spare's group \(group)")
        for pid in webProcesses {
            // (Read to the end: Foundation reads a /proc file's first 4 KB only.)
            let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd() ?? Data()
            #expect(String(decoding: maps, as: UTF8.self).contains("libSwiftPrintWebPrintDeflate.so"), "web process \(pid) did not load the library")
        }
    }

    /// Without the library a run says so, and prints the same document: the same pages, the same
    /// objects once both are written out alike (`qpdf --qdf`), only the file's /ID differs.
    @Test func withoutItTheRunSaysSoAndPrintsTheSame() throws {
        let dir = try temporaryDirectory()
        try SpareRendererTests.document.write(toFile: dir + "/page.html", atomically: false, encoding: .utf8)
        let env = ["SWIFTPRINT_MARKUP_SPARE": "0", "SOURCE_DATE_EPOCH": "1"]
        let with = try swiftprint(["convert", "--verbose", dir + "/page.html", "-o", dir + "/with.pdf"], env: env)
        #expect(with.status == 0 && !with.stderr.contains("libSwiftPrintWebPrintDeflate.so"), "\(with.stderr)")
        let without = try swiftprint(["convert", "--verbose", dir + "/page.html", "-o", dir + "/without.pdf"],
                                     env: env.merging(["SWIFTPRINT_WEB_PRINT_DEFLATE_LIBRARY": dir + "/none.so"]) { $1 })
        #expect(without.status == 0, "\(without.stderr)")
        #expect(without.stderr.contains("libSwiftPrintWebPrintDeflate.so is not installed beside swiftprint"), "\(without.stderr)")
        func normalised(_ name: String) throws -> [Substring] {
            try Tool.run("qpdf", ["--qdf", "--static-id", "--object-streams=disable", dir + "/" + name, dir + "/qdf-" + name])
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/qdf-" + name)), as: UTF8.self)
            return text.split(separator: "\n").filter { !$0.contains("/ID [") }
        }
        #expect(try normalised("with.pdf") == normalised("without.pdf"))
    }
}
