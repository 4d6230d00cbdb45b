import CUPSLibrary
import Foundation
import TestSupport
import Testing

enum NetworkNamespace {
    static var canRun: Bool {
        IPPEverywherePrinter.canRun
            && ["/usr/bin/unshare", "/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/sbin/cupsfilter"].allSatisfy(FileManager.default.isExecutableFile)
    }
}

/// `swiftprint install --share` as an iPhone sees it, with nothing sent off the machine: in a
/// network namespace of its own (loopback only, multicast on) with a private mount of /run,
/// a D-Bus system bus, avahi-daemon and a cupsd run; the install shares the queue; avahi-browse
/// finds it as an AirPrint printer; ipptool sends it Apple raster made by CUPS's own filters,
/// as an iPhone would over IPP; the PDF saved is what swiftprint's raster reader made of it.
@Suite(.serialized, .enabled(if: NetworkNamespace.canRun, "needs root, cupsd, ippeveprinter, unshare, avahi-daemon and avahi-browse"))
struct AirPrintTests {
    /// Runs in the namespace: $1 the cupsd's folder, $2 its port, $3 swiftprint, $4 the Apple
    /// raster to send, then the install arguments. Each step's output follows a `== step` line.
    static let script = #"""
    set -u
    root=$1; port=$2; swiftprint=$3; urf=$4; shift 4
    server=127.0.0.1:$port
    ip link set lo up && ip link set lo multicast on
    mkdir -p /run/dbus /run/avahi-daemon
    mount -t tmpfs tmpfs /run/dbus && mount -t tmpfs tmpfs /run/avahi-daemon
    dbus-daemon --system --fork
    avahi-daemon -D --no-chroot
    (cd "$root/closed" && exec /usr/sbin/cupsd -f -c "$root/etc/cupsd.conf" -s "$root/etc/cups-files.conf") &
    cupsd=$!
    up() { for i in $(seq 100); do lpstat -h "$server" -r 2>/dev/null | grep -q "is running" && return 0; sleep 0.1; done; return 1; }
    # cupsd restarts when its settings change: ask until it answers.
    settings() { for i in $(seq 100); do out=$(cupsctl -h "$server" 2>/dev/null) && [ -n "$out" ] && break; sleep 0.1; done; echo "$out"; }
    up || echo "cupsd did not start"
    echo "== install"
    "$swiftprint" install "$@" --share 2>&1
    # cupsd reads the new types when it reloads.
    kill -HUP $cupsd; sleep 0.5; up
    echo "== sharing"
    settings
    sleep 3
    echo "== browse"
    avahi-browse -rtpk _ipp._tcp 2>&1
    echo "== universal"
    avahi-browse -tpk _universal._sub._ipp._tcp 2>&1
    echo "== print"
    ipptool -tv -f "$urf" -d filetype=image/urf "ipp://$server/printers/swiftprint" print-job.test 2>&1
    for i in $(seq 600); do [ -z "$(lpstat -h "$server" -o swiftprint 2>/dev/null)" ] && break; sleep 0.1; done
    echo "== jobs"
    lpstat -h "$server" -l -W completed -o swiftprint 2>&1
    echo "== dnssd"
    # A printer announcing itself (ippeveprinter with DNS-SD on), installed by its DNS-SD name
    # as CUPS writes it (dnssd://NAME._ipp._tcp.local/). lpinfo would not list it: CUPS's dnssd
    # backend ignores services of its own host ("Ignoring local service"), and here all is one host.
    mkdir -p "$root/announced"
    ippeveprinter -n localhost -p $((port + 1)) -d "$root/announced" -k -f application/pdf -c /bin/true -M swiftprint-tests -m Announced Announced >/dev/null 2>&1 &
    announced=$!
    for i in $(seq 50); do avahi-browse -tpk _ipp._tcp 2>/dev/null | grep -q ";Announced;" && break; sleep 0.2; done
    uri="dnssd://Announced._ipp._tcp.local/"
    echo "uri $uri"
    "$swiftprint" install "$@" --printer "$uri" --name Announced 2>&1
    kill -HUP $cupsd; sleep 0.5; up
    printf 'a job for a printer found by its name\n' > "$root/announced.txt"; chmod 644 "$root/announced.txt"
    lp -h "$server" -d Announced "$root/announced.txt" 2>&1
    for i in $(seq 300); do [ -z "$(lpstat -h "$server" -o Announced 2>/dev/null)" ] && break; sleep 0.1; done
    ls "$root/announced"
    kill $announced
    echo "== uninstall"
    "$swiftprint" uninstall "$@" 2>&1
    echo "== sharing after"
    settings
    kill $cupsd; wait $cupsd 2>/dev/null
    avahi-daemon -k 2>/dev/null
    kill "$(cat /run/dbus/pid)" 2>/dev/null
    echo "== end"
    """#

    /// The output of step `name` (the lines after `== name`, before the next step).
    static func step(_ name: String, in output: String) -> String {
        let parts = output.components(separatedBy: "== \(name)\n")
        guard parts.count > 1 else { return "" }
        return parts[1].components(separatedBy: "\n== ").first ?? ""
    }

    @Test func anIPhoneFindsTheSharedQueueAndItsAppleRasterIsSavedAsPDF() throws {
        let dir = try temporaryDirectory()
        // Apple raster as CUPS's own filters write it (Ghostscript, then rastertopwg), for a
        // printer that takes it: CUPS's PPD for an ippeveprinter that takes only Apple raster.
        let printer = try IPPEverywherePrinter(name: "PhoneTarget", duplex: false, color: true, formats: ["image/urf"])
        defer { printer.stop() }
        let ppd = try PrinterAttributes.ppd(from: try PrinterAttributes.ask(try PrinterAddress(uri: printer.uri)))
        try ppd.write(toFile: dir + "/urf.ppd", atomically: false, encoding: .isoLatin1)
        // Two upright pages: a photo and text.
        let pdf = dir + "/two.pdf"
        _ = try Tool.run("convert", ["-size", "600x900", "-seed", "5", "plasma:", "-quality", "90", dir + "/photo.jpg"])
        #expect(try Tool.run(Tool.swiftprint, ["convert", dir + "/photo.jpg", directory() + "/../../Examples/notes.md",
                                               "--media", "A4", "--page-ranges", "1-2", "-o", pdf]).status == 0)
        // (In page order: the PPD's face-up bin would have pdftopdf reverse them.)
        let made = try Tool.run("/usr/sbin/cupsfilter", ["-p", dir + "/urf.ppd", "-m", "image/urf", "-o", "media=iso_a4_210x297mm", "-o", "outputorder=normal", pdf])
        try #require(made.stdout.starts(with: Array("UNIRAST\0".utf8)), "cupsfilter: \(made.stderr.suffix(1500))")
        try made.stdout.write(to: URL(fileURLWithPath: dir + "/phone.urf"))

        let root = dir + "/cupsd", port = try PrivateCUPS.freePort()
        try PrivateCUPS.writeServer(at: root, port: port, stockFilters: false, allSystemFilters: false)
        try FileManager.default.createDirectory(atPath: root + "/closed", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // CUPS's backends for a printer known by its DNS-SD name: dnssd (cupsd takes the scheme
        // only where its backend is), which finds the printer and hands the job to ipp.
        try FileManager.default.createDirectory(atPath: root + "/lib/backend", withIntermediateDirectories: true)
        for backend in ["ipp", "dnssd"] {
            try FileManager.default.createSymbolicLink(atPath: root + "/lib/backend/" + backend, withDestinationPath: "/usr/lib/cups/backend/" + backend)
        }
        let saved = root + "/saved"
        let install = ["--prefix", root + "/prefix", "--cups-serverbin", root + "/lib", "--cups-datadir", root + "/data",
                       "--cups-serverroot", root + "/etc", "--cups-server", "127.0.0.1:\(port)", "--spool", saved]
        try Self.script.write(toFile: dir + "/namespace.sh", atomically: false, encoding: .utf8)
        let run = try withNoSignalsBlocked {
            try Tool.run("/usr/bin/unshare", ["--net", "--mount", "--fork", "/bin/bash", dir + "/namespace.sh", root, String(port), Tool.swiftprint,
                                              dir + "/phone.urf"] + install)
        }
        let out = run.text
        try #require(out.contains("== end"), "the namespace run ended early: \(out) \(run.stderr)")
        #expect(Self.step("install", in: out).contains("The swiftprint queue prints"), "\(Self.step("install", in: out))")
        #expect(Self.step("sharing", in: out).contains("_share_printers=1"), "\(Self.step("sharing", in: out))")

        // The queue, announced as an IPP printer with AirPrint's subtype and keys.
        let browse = Self.step("browse", in: out)
        let record = try #require(browse.split(separator: "\n").first { $0.hasPrefix("=;lo;IPv4;") && $0.contains(";_ipp._tcp;") && $0.contains("swiftprint") },
                                  "\(browse)")
        #expect(record.contains("\"rp=printers/swiftprint\""), "\(record)")
        #expect(record.contains("image/urf") && record.contains("application/pdf"), "pdl: \(record)")
        let urf = try #require(record.split(separator: "\"").first { $0.hasPrefix("URF=") }, "\(record)")
        // What the queue's PPD declares: grey and sRGB, and its resolutions (300 and 600 dpi;
        // CUPS 2.4.2 announces only the first).
        let keys = urf.split(separator: "=")[1].split(separator: ",")
        for key in ["V1.4", "W8", "SRGB24"] { #expect(keys.contains(Substring(key)), "\(urf)") }
        #expect(keys.contains { $0 == "RS300" || $0 == "RS300-600" }, "\(urf)")
        #expect(Self.step("universal", in: out).contains("swiftprint"), "\(Self.step("universal", in: out))")

        // The job an iPhone sends: saved as PDF by way of swiftprint's raster reader.
        #expect(Self.step("print", in: out).contains("[PASS]"), "\(Self.step("print", in: out))")
        #expect(Self.step("jobs", in: out).contains("completed") || FileManager.default.fileExists(atPath: saved + "/root"), "\(Self.step("jobs", in: out))")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: saved + "/root")) ?? []
        let back = try #require(files.first.map { saved + "/root/" + $0 }, "nothing saved: \(Self.step("jobs", in: out))")
        #expect(try PDF.pageCount(back) == 2)
        #expect(try PDF.pageSizes(back).allSatisfy { abs($0.width - 595.3) < 1 && abs($0.height - 841.9) < 1 })
        let images = try Tool.run("pdfimages", ["-list", back]).text
        #expect(images.split(separator: "\n").filter { $0.contains(" image ") }.count == 2, "one raster image a page: \(images)")
        let d = PDF.meanDifference(try PDF.grayPixels(back, page: 1), try PDF.grayPixels(pdf, page: 1))
        #expect(d < 6, "the saved page looks like the document the phone printed: mean difference \(d)")

        // A printer known by its DNS-SD name (a dnssd:// URI, as lpinfo lists them): swiftprint resolves it to
        // ask what it supports, CUPS's ipp backend resolves it to send the job.
        let dnssd = Self.step("dnssd", in: out)
        #expect(dnssd.contains("uri dnssd://Announced") && dnssd.contains("The Announced queue sends application/pdf"), "\(dnssd)")
        #expect(dnssd.split(separator: "\n").contains { $0.hasSuffix(".pdf") && $0.contains("announced") }, "the job reached the printer: \(dnssd)")

        // Uninstall takes the sharing back.
        #expect(Self.step("sharing after", in: out).contains("_share_printers=0"), "\(Self.step("sharing after", in: out))")
    }
}
