@testable import CUPSLibrary
import Foundation
import TestSupport
import Testing

/// What comes from the network, as it comes: a printer whose IPP answer tries to write lines into
/// its queue's PPD (CVE-2024-47175: `*FoomaticRIPCommandLine`, `*cupsFilter2`), and a phone's job
/// (ipptool `Print-Job`) whose names try to reach files, logs and cupsd's message lines.
@Suite(.serialized, .enabled(if: IPPEverywherePrinter.canRun, "needs root, cupsd, ippeveprinter and dbus-daemon"))
struct NetworkJobSafetyTests {
    static let examples = directory() + "/../../Examples"

    /// A printer that describes itself with strings of several lines and quotes.
    static let hostilePrinter = #"""
        ATTR text printer-make-and-model "Evil\n*FoomaticRIPCommandLine: \"touch /tmp/swiftprint-pwned-foomatic\"
        *cupsFilter2: \"application/pdf application/vnd.cups-postscript 0 foomatic-rip\""
        ATTR text printer-info "Info\n*cupsPreFilter: \"application/pdf 0 /bin/sh\""
        ATTR keyword media-supported iso_a4_210x297mm
        ATTR keyword media-default iso_a4_210x297mm
        ATTR keyword media-ready iso_a4_210x297mm
        ATTR collection media-col-default { MEMBER collection media-size { MEMBER integer x-dimension 21000 MEMBER integer y-dimension 29700 } MEMBER integer media-left-margin 300 MEMBER integer media-right-margin 300 MEMBER integer media-top-margin 300 MEMBER integer media-bottom-margin 300 }
        ATTR collection media-col-database { MEMBER collection media-size { MEMBER integer x-dimension 21000 MEMBER integer y-dimension 29700 } MEMBER integer media-left-margin 300 MEMBER integer media-right-margin 300 MEMBER integer media-top-margin 300 MEMBER integer media-bottom-margin 300 }
        ATTR collection media-size-supported { MEMBER integer x-dimension 21000 MEMBER integer y-dimension 29700 }
        ATTR integer media-left-margin-supported 300
        ATTR integer media-right-margin-supported 300
        ATTR integer media-top-margin-supported 300
        ATTR integer media-bottom-margin-supported 300
        ATTR rangeOfInteger copies-supported 1-99
        ATTR integer copies-default 1
        ATTR enum print-quality-supported 4
        ATTR enum print-quality-default 4
        ATTR keyword sides-supported one-sided
        ATTR keyword sides-default one-sided
        ATTR keyword print-color-mode-supported monochrome
        ATTR keyword print-color-mode-default monochrome
        ATTR resolution printer-resolution-supported 300dpi
        ATTR resolution printer-resolution-default 300dpi
        ATTR resolution pwg-raster-document-resolution-supported 300dpi
        ATTR keyword pwg-raster-document-type-supported sgray_8
        ATTR keyword urf-supported W8,RS300,CP1,DM1,IS1
        ATTR keyword printer-kind document

        """#

    /// `install --printer` makes the queue's PPD from the printer's answer: every line in it is
    /// one CUPS's writer or swiftprint meant, whatever the printer said.
    @Test func aPrinterCannotWriteLinesIntoItsQueuesPPD() throws {
        let cups = try PrivateCUPS.withStockFilters()
        defer { cups.stop() }
        let printer = try IPPEverywherePrinter(name: "EvilDevice", attributes: Self.hostilePrinter)
        defer { printer.stop() }
        let said = try Tool.run("ipptool", ["-tv", printer.uri, "get-printer-attributes.test"]).text
        #expect(said.contains("*FoomaticRIPCommandLine"), "the printer does say it: \(said.prefix(400))")
        let r = try Tool.run(Tool.swiftprint, ["install"] + cups.installArguments + ["--printer", printer.uri, "--name", "Evil"],
                             environment: ["CUPS_SERVER": cups.server])
        #expect(r.status == 0, "\(r.stderr)\(r.text)")
        for ppd in [cups.root + "/prefix/share/swiftprint/printers/Evil.ppd", cups.root + "/etc/ppd/Evil.ppd"] {
            let text = try String(contentsOfFile: ppd, encoding: .isoLatin1)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!lines.contains { $0.hasPrefix("*FoomaticRIP") || $0.hasPrefix("*cupsPreFilter") }, "\(ppd)")
            let filters = lines.filter { $0.hasPrefix("*cupsFilter") }
            #expect(!filters.isEmpty && filters.allSatisfy { $0.hasPrefix("*cupsFilter2: \"") && $0.hasSuffix(" swiftprint\"") }, "\(filters)")
            #expect(lines.contains { $0.hasPrefix("*NickName: \"") && $0.hasSuffix("(swiftprint)\"") }, "\(ppd)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/swiftprint-pwned-foomatic"))
        // Debian's libcups 2.4.2 has CVE-2024-47175's fix; swiftprint does not count on it: the
        // strings CUPS's writer is given have no line break or double quote left in them.
        let answer = try PrinterAttributes.ask(PrinterAddress(uri: printer.uri))
        #expect(answer.attribute("printer-make-and-model")?.string?.contains("\n") == true)
        PrinterAttributes.plainStrings(in: answer.pointer)
        for name in ["printer-make-and-model", "printer-info"] {
            let value = try #require(answer.attribute(name)?.string)
            #expect(!value.contains("\n") && !value.contains("\""), "\(name): \(value)")
            if name == "printer-make-and-model" { #expect(value.hasPrefix("Evil *FoomaticRIPCommandLine: 'touch"), "\(value)") }
        }
    }

    /// A phone's job, as a phone sends it (ipptool `Print-Job`, a PDF, the names it likes) to a
    /// queue shared with guests: the sender has no account here, so the guest account saves it,
    /// in a folder named after the sender, made safe; its title and document name reach no other
    /// file, and no line of cupsd's log or message begins with what they say. Names with line
    /// breaks cupsd itself refuses.
    @Test func aPhonesJobReachesNothingButItsOwnFile() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let spool = cups.root + "/phones"
        let ppd = cups.root + "/prefix/share/swiftprint/swiftprint.ppd"
        let add = try Tool.run("lpadmin", ["-h", cups.server, "-p", "Phones", "-E", "-v", "swiftprint:\(spool)?guest=nobody", "-P", ppd])
        #expect(add.status == 0, "\(add.stderr)")
        let pdf = try temporaryDirectory() + "/boarding.pdf"
        #expect(try Tool.run(Tool.swiftprint, ["convert", Self.examples + "/multilingual.txt", "-o", pdf]).status == 0)
        func printJob(user: String, title: String, document: String) throws -> Tool.Result {
            let test = try temporaryDirectory() + "/print-job.test"
            func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            try """
            { NAME "a phone's job" OPERATION Print-Job GROUP operation-attributes-tag
              ATTR charset attributes-charset utf-8 ATTR naturalLanguage attributes-natural-language en
              ATTR uri printer-uri $uri ATTR name requesting-user-name \(quoted(user))
              ATTR name job-name \(quoted(title)) ATTR name document-name \(quoted(document))
              ATTR mimeMediaType document-format application/pdf
              FILE \(pdf) }
            """.write(toFile: test, atomically: false, encoding: .utf8)
            return try Tool.run("ipptool", ["-tv", "ipp://\(cups.server)/printers/Phones", test])
        }
        let title = "../../../../tmp/swiftprint-evil \u{202E}fdp.exe 'quoted' \"double\" $(touch /tmp/swiftprint-pwned-title)"
        let sent = try printJob(user: "Ana's iPhone ../..", title: title, document: "../../etc/passwd")
        #expect(sent.text.contains("status-code = successful-ok"), "\(sent.text)")
        try cups.waitForJobs(on: "Phones")
        let saved = try FileManager.default.subpathsOfDirectory(atPath: spool)
        #expect(saved.count == 2, "\(saved)")
        let folder = try #require(saved.first { !$0.contains("/") })
        #expect(folder == "Ana's iPhone .._", "\(saved)")
        let file = try #require(saved.first { $0.contains("/") })
        #expect(!file.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) } && file.hasSuffix(".pdf"), "\(file)")
        let nobody = getpwnam("nobody").pointee.pw_uid
        #expect((try FileManager.default.attributesOfItem(atPath: spool + "/" + file)[.ownerAccountID] as? NSNumber)?.uint32Value == nobody)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/swiftprint-evil") && !FileManager.default.fileExists(atPath: "/tmp/swiftprint-pwned-title"))
        // A line break in a name: refused by cupsd, before any program of ours sees it.
        let broken = try printJob(user: "phone", title: "two\nATTR: marker-levels=1", document: "x")
        #expect(!broken.text.contains("status-code = successful-ok"), "\(broken.text)")
        let log = (try? String(contentsOfFile: cups.root + "/log/error_log", encoding: .utf8)) ?? ""
        let lines = log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("ATTR:") || $0.contains("] ATTR: marker-levels") }, "the title reached the log as a message")
        #expect(lines.contains { $0.contains("Bad job-name value") }, "cupsd's reason")
    }

    /// `install --share` gives the queue CUPS's per-sender quotas: past them cupsd refuses the
    /// next job, and the sender hears why.
    @Test func aSharedQueueLimitsWhatOneSenderTakes() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let share = try Tool.run(Tool.swiftprint, ["install"] + cups.installArguments + ["--share", "--quota-pages", "1"])
        #expect(share.status == 0, "\(share.stderr)\(share.text)")
        // cupsd keeps them with the queue (printers.conf), not as options a job could change.
        let conf = (try? String(contentsOfFile: cups.root + "/etc/printers.conf", encoding: .utf8)) ?? ""
        #expect(conf.contains("PageLimit 1") && conf.contains("KLimit 204800") && conf.contains("QuotaPeriod 3600"), "\(conf)")
        _ = try cups.submit([Self.examples + "/server.log"], title: "first")
        try cups.waitForJobs()
        let second = try Tool.run("lp", ["-h", cups.server, "-d", "swiftprint", Self.examples + "/server.log"])
        #expect(second.status != 0 && second.stderr.contains("Quota limit reached"), "\(second.status) \(second.stderr)")
    }
}
