import CUPSCommon
import Foundation
import TestSupport
import Testing

/// The device URI of a swiftprint printer queue: the printer's `ipp://` or `ipps://` address
/// behind `swiftprint-`, nothing else, and nothing that could reach another program's
/// arguments as more than one.
@Suite struct RelayDeviceURITests {
    @Test("refused device URIs", arguments: [
        "swiftprint-ipp:", "swiftprint-ipp://", "swiftprint-ipp:/printer", "swiftprint-socket://10.0.0.2:9100",
        "swiftprint-dnssd://Office._ipp._tcp.local/", "ipp://10.0.0.2/ipp/print", "swiftprint-ipp://host/ipp/print job",
        "swiftprint-ipp://host/ipp/\nprint", "swiftprint-ipp://host/ipp/print\u{7F}", "swiftprint:/var/spool/swiftprint",
        "swiftprint-ipp:../../../bin/sh",
    ])
    func refused(uri: String) {
        #expect(RelayDeviceURI(uri) == nil)
    }

    @Test func thePrintersAddressReadsBackAsWritten() throws {
        let relayed = try #require(RelayDeviceURI(relaying: "ipps://office.local:631/ipp/print?contimeout=30"))
        #expect(relayed.uri == "swiftprint-ipps://office.local:631/ipp/print?contimeout=30" && relayed.backend == "ipps")
        #expect(RelayDeviceURI(relayed.uri) == relayed)
        #expect(RelayDeviceURI(relaying: "dnssd://Office._ipp._tcp.local/") == nil, "a dnssd name goes to CUPS's dnssd backend as it is")
        #expect(RelayDeviceURI.printerAddress(ofDevice: relayed.uri) == "ipps://office.local:631/ipp/print?contimeout=30")
        #expect(RelayDeviceURI.printerAddress(ofDevice: "usb://HP/LaserJet") == "usb://HP/LaserJet")
    }
}

/// The relay run as cupsd runs it, over a stand-in for CUPS's ipp backend (a script in a
/// CUPS_SERVERBIN of the test's own) that says what the real one says and exits as it would:
/// every other status passes through; a job the printer "no longer knows" is left as the ipp
/// backend says when the printer was up all along; a document left unread by a printer that no
/// longer answers is handed back for a retry. The real ipp backend and real printers dying are
/// `PrinterQueueTests.aPrinterSwitchedOffMidSendGetsTheWholeJobOnceBack` and
/// `aPrinterRestartedWhilePrintingGetsTheJobAgain`.
@Suite(.serialized, .enabled(if: IPPEverywherePrinter.canRun, "needs ippeveprinter and dbus-daemon"))
struct PrinterRelayTests {
    static let relay = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-relay"

    /// Runs the relay for `printer` over an ipp backend that runs `script` (sh); its status and
    /// standard error.
    func relay(to printer: String, standIn script: String, input: Data) throws -> Tool.Result {
        let serverBin = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: serverBin + "/backend", withIntermediateDirectories: true)
        try ("#!/bin/sh\n" + script + "\n").write(toFile: serverBin + "/backend/ipp", atomically: false, encoding: .utf8)
        chmod(serverBin + "/backend/ipp", 0o755)
        return try Tool.run(Self.relay, ["7", "ann", "letter", "1", ""], stdin: input,
                            environment: ["DEVICE_URI": "swiftprint-" + printer, "CUPS_SERVERBIN": serverBin])
    }

    @Test func theIPPBackendsStatusPassesThroughAndItsMessagesToo() throws {
        let r = try relay(to: "ipp://127.0.0.1:9/ipp/print", standIn: "cat >/dev/null; echo 'ERROR: Printer cannot print with supplied options.' >&2; exit 4",
                          input: Data("job".utf8))
        #expect(r.status == 4)
        #expect(r.stderr.contains("ERROR: Printer cannot print with supplied options."), "\(r.stderr)")
    }

    @Test func aPrinterUpAllAlongKeepsTheIPPBackendsWord() throws {
        let printer = try IPPEverywherePrinter(name: "UpDevice", duplex: false, color: false, formats: ["application/pdf"])
        defer { printer.stop() }
        let forgot = """
            cat >/dev/null
            echo 'DEBUG: Get-Job-Attributes: successful-ok (successful-ok)' >&2
            echo 'STATE: +cups-ipp-conformance-failure-report,cups-ipp-missing-job-history' >&2
            exit 0
            """
        let r = try relay(to: printer.uri, standIn: forgot, input: Data("job".utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("will be sent again"), "\(r.stderr)")
    }

    /// Exit 0 over a half-read document, or 4 (stop the queue) for a Send-Document that broke:
    /// with the printer gone, the job is sent again, and the queue is not stopped.
    @Test(arguments: [0, 4])
    func aDocumentLeftUnreadByAPrinterThatStoppedAnsweringIsSentAgain(ippStatus: Int) throws {
        let port = try PrivateCUPS.freePort()
        // 1 MB, more than a pipe holds: the stand-in reads 1 KB of it.
        let r = try relay(to: "ipp://127.0.0.1:\(port)/ipp/print", standIn: "head -c 1024 >/dev/null; exit \(ippStatus)",
                          input: Data(repeating: 0x41, count: 1 << 20))
        #expect(r.status == 6, "CUPS_BACKEND_RETRY: \(r.stderr)")
        #expect(r.stderr.contains("ERROR: swiftprint: the printer 127.0.0.1 stopped answering before the whole document reached it; the job will be sent again"),
                "\(r.stderr)")
    }

    /// A printer up all along that took part of a document and refused the rest (CUPS's ipp
    /// backend exits 4 for a printer that claims Send-Document and fails it): the queue stops,
    /// as CUPS has it.
    @Test func aPrinterUpAllAlongThatStoppedTheSendingStillStopsTheQueue() throws {
        let printer = try IPPEverywherePrinter(name: "RefusingDevice", duplex: false, color: false, formats: ["application/pdf"])
        defer { printer.stop() }
        let r = try relay(to: printer.uri, standIn: "head -c 1024 >/dev/null; exit 4", input: Data(repeating: 0x41, count: 1 << 20))
        #expect(r.status == 4, "\(r.stderr)")
    }
}
