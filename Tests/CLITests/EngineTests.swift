import Foundation
import TestSupport
import Testing

/// The PDF assembler's engine, libSwiftPrintQPDF.so, is opened only by jobs that assemble PDFs.
@Suite struct EngineTests {
    @Test func textPrintsWithoutTheEngineAndAssemblyNamesWhatIsMissing() throws {
        // A copy of the program in a folder without the engine beside it.
        let dir = try temporaryDirectory()
        let bin = dir + "/swiftprint"
        try FileManager.default.copyItem(atPath: Tool.swiftprint, toPath: bin)
        let config = URL(fileURLWithPath: examples).deletingLastPathComponent().appendingPathComponent("Config").path
        let env = ["SWIFTPRINT_CONFIG_DIR": config]
        try Data("hello, printer\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.txt"))

        let text = try Tool.run(bin, ["convert", dir + "/a.txt", "-o", dir + "/a.pdf"], environment: env)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(try PDF.text(dir + "/a.pdf").contains("hello, printer"))

        // Pointed at a folder without it (an installed copy elsewhere must not stand in).
        let missing = env.merging(["SWIFTPRINT_QPDF_LIBRARY": dir + "/none/libSwiftPrintQPDF.so"]) { $1 }
        let pdf = try Tool.run(bin, ["convert", dir + "/a.pdf", "-o", dir + "/b.pdf"], environment: missing)
        #expect(pdf.status == 69, "\(pdf.stderr)")
        #expect(pdf.stderr.contains("a.pdf") && pdf.stderr.contains("libSwiftPrintQPDF.so"), "\(pdf.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b.pdf"))

        // Named by SWIFTPRINT_QPDF_LIBRARY, the engine is found again.
        let engine = URL(fileURLWithPath: Tool.swiftprint).deletingLastPathComponent().appendingPathComponent("libSwiftPrintQPDF.so").path
        let named = try Tool.run(bin, ["convert", dir + "/a.pdf", "-o", dir + "/b.pdf"],
                                 environment: env.merging(["SWIFTPRINT_QPDF_LIBRARY": engine]) { $1 })
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try PDF.text(dir + "/b.pdf").contains("hello, printer"))
    }

    /// An engine built from other sources (an older or newer copy installed elsewhere) is
    /// refused by name, not called with arguments its functions do not take: each engine's
    /// table carries the version of its functions, which changes with them.
    @Test func anEngineBuiltFromOtherSourcesIsRefusedByName() throws {
        let dir = try temporaryDirectory()
        // Tables as an engine of the previous version lays them out: the assembler's version 10;
        // the page renderer's from before it carried a version, its first field a function.
        let old = [
            "struct table { int version; unsigned long size; };",
            "static struct table assembler = {10, sizeof(struct table)};",
            "const struct table *spq_functions(void) { return &assembler; }",
            "static void opens(void) {}",
            "static void (*renderer[5])(void) = {opens, opens, opens, opens, opens};",
            "const void *spr_page_renderer_functions(void) { return renderer; }",
        ].joined(separator: "\n")
        try old.write(toFile: dir + "/old.c", atomically: false, encoding: .utf8)
        let built = try Tool.run("cc", ["-shared", "-fPIC", "-o", dir + "/old.so", dir + "/old.c"])
        #expect(built.status == 0, "\(built.stderr)")
        try Data("hello, printer\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.txt"))
        #expect(try swiftprint(["convert", dir + "/a.txt", "-o", dir + "/a.pdf"]).status == 0)
        _ = try Tool.run("convert", ["-size", "1200x900", "gradient:red-blue", dir + "/photo.jpg"])

        let assembling = try swiftprint(["convert", dir + "/a.pdf", "-o", dir + "/b.pdf"], env: ["SWIFTPRINT_QPDF_LIBRARY": dir + "/old.so"])
        #expect(assembling.status == 69 && assembling.stderr.contains("built from other sources (table version 10"), "\(assembling.stderr)")
        let drawing = try swiftprint(["convert", dir + "/photo.jpg", "-o", dir + "/c.pwg", "--output-format", "pwg-raster", "--printer-resolution", "72"],
                                     env: ["SWIFTPRINT_PDF_REPAIR_LIBRARY": dir + "/old.so"])
        #expect(drawing.status != 0 && drawing.stderr.contains("built from other sources") && drawing.stderr.contains("page renderer version"),
                "\(drawing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/b.pdf") && !FileManager.default.fileExists(atPath: dir + "/c.pwg"))
    }

    @Test func anInstallationFindsTheEngineUnderItsPrefix() throws {
        // prefix/libexec/swiftprint/swiftprint and prefix/lib/swiftprint/libSwiftPrintQPDF.so.
        let prefix = try temporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: prefix + "/libexec/swiftprint", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: prefix + "/lib/swiftprint", withIntermediateDirectories: true)
        let built = URL(fileURLWithPath: Tool.swiftprint).deletingLastPathComponent()
        try fm.copyItem(atPath: Tool.swiftprint, toPath: prefix + "/libexec/swiftprint/swiftprint")
        try fm.copyItem(atPath: built.appendingPathComponent("libSwiftPrintQPDF.so").path,
                        toPath: prefix + "/lib/swiftprint/libSwiftPrintQPDF.so")
        let config = URL(fileURLWithPath: examples).deletingLastPathComponent().appendingPathComponent("Config").path
        let r = try Tool.run(prefix + "/libexec/swiftprint/swiftprint",
                             ["convert", examples + "/poster.svg", "-o", prefix + "/out.pdf", "--quiet"],
                             environment: ["SWIFTPRINT_CONFIG_DIR": config,
                                           "SWIFTPRINT_IMAGE_DECODER": built.appendingPathComponent("swiftprint-image").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(prefix + "/out.pdf") == 1)
    }

    /// libcups maps gnutls, avahi and kerberos (6–11 ms at every start), poppler-glib poppler's
    /// core and its libraries: a conversion to PDF loads neither, only the commands and jobs
    /// that need them do (the dynamic loader's own log says which).
    @Test func aConversionNeverLoadsLibcupsOrPoppler() throws {
        let dir = try temporaryDirectory()
        func loaded(_ arguments: [String]) throws -> [String] {
            let r = try swiftprint(arguments, env: ["LD_DEBUG": "libs"])
            return r.stderr.split(separator: "\n").filter { $0.contains("calling init:") }.map { String($0.split(separator: " ").last ?? "") }
        }
        let text = try loaded(["convert", examples + "/server.log", "-o", dir + "/a.pdf"])
        #expect(text.contains { $0.contains("libcairo") }, "the loader's log was not read: \(text)")
        #expect(!text.contains { $0.contains("libcups") || $0.contains("libpoppler") })
        #expect(try !loaded(["convert", dir + "/a.pdf", "-o", dir + "/b.pdf"]).contains { $0.contains("libcups") || $0.contains("libpoppler") })
        // Raster output is drawn and written by swiftprint-raster: the job's process loads
        // neither, the helper both; a preview draws with poppler-glib in its own process.
        let raster = try loaded(["convert", dir + "/a.pdf", "--output-format", "urf", "--printer-resolution", "20", "-o", dir + "/a.urf"])
        #expect(raster.contains { $0.contains("libcairo") } && !raster.contains { $0.contains("libcups") || $0.contains("libpoppler") })
        #expect(FileManager.default.fileExists(atPath: dir + "/a.urf"))
        let built = URL(fileURLWithPath: Tool.swiftprint).deletingLastPathComponent().appendingPathComponent("swiftprint-raster").path
        let request = #"{"input": "\#(dir)/a.pdf", "task": {"format": "urf", "type": "srgb_8", "resolution": {"x": 20, "y": 20}, "duplex": "none", "sheetBack": "normal", "intent": "auto"}}"#
        let helper = try Tool.run(built, [], stdin: Data((request + "\n").utf8), environment: ["LD_DEBUG": "libs"])
        let helperLoaded = helper.stderr.split(separator: "\n").filter { $0.contains("calling init:") }
        #expect(helperLoaded.contains { $0.contains("libcups.so") } && helperLoaded.contains { $0.contains("libpoppler-glib") }, "\(helper.stderr.suffix(2000))")
        #expect(try loaded(["preview", dir + "/a.pdf", "--resolution", "20", "-o", dir + "/a.png"]).contains { $0.contains("libpoppler-glib") })
        // `printers` loads it (and fails for want of a server here, or lists what there is).
        #expect(try loaded(["printers"]).contains { $0.contains("libcups.so") })
    }
}
