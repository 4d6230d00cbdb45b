import CCupsShim
import Foundation
import PrintModel

/// A connection to an IPP printer or server (`http_t`), closed with its owner.
package final class HTTPConnection {
    let http: OpaquePointer

    /// Connects to `host:port`, with TLS for `ipps` (`encrypted`), waiting at most `timeout` seconds.
    package init(host: String, port: Int, encrypted: Bool, timeout: Int) throws {
        try LibCUPS.load()
        let encryption = encrypted ? HTTP_ENCRYPTION_ALWAYS : HTTP_ENCRYPTION_IF_REQUESTED
        guard let http = spcups_httpConnect2(host, Int32(port), nil, AF_UNSPEC, encryption, 1, Int32(timeout * 1000), nil) else {
            throw PrintError(.notAvailable, "cannot reach \(host):\(port): \(String(cString: strerror(errno)))", status: errno)
        }
        self.http = http
    }

    deinit { spcups_httpClose(http) }
}

/// A printer's address as libcups splits it: `ipp://host:631/ipp/print` →
/// (`ipp`, `host`, 631, `/ipp/print`); options for CUPS's backend after `?` are left out. A `dnssd://` URI (a name `lpinfo -v` lists) is first
/// resolved to the address the printer announces.
package struct PrinterAddress: Sendable {
    package var uri: String
    package var scheme: String
    package var host: String
    package var port: Int
    package var resource: String

    package init(uri: String, resolveTimeout: Int = 10) throws {
        try LibCUPS.load()
        var target = uri
        if uri.hasPrefix("dnssd://") { target = try Self.resolve(uri, timeout: resolveTimeout) }
        var scheme = [CChar](repeating: 0, count: 32), user = [CChar](repeating: 0, count: 256)
        var host = [CChar](repeating: 0, count: 256), resource = [CChar](repeating: 0, count: 1024)
        var port: Int32 = 0
        let status = spcups_httpSeparateURI(HTTP_URI_CODING_ALL, target, &scheme, 32, &user, 256, &host, 256, &port, &resource, 1024)
        let s = String(filledBuffer: scheme)
        guard status.rawValue >= HTTP_URI_STATUS_OK.rawValue, s == "ipp" || s == "ipps", !String(filledBuffer: host).isEmpty else {
            throw PrintError(.invalidOption, "\(uri) is not a printer address (ipp://host/ipp/print, ipps://…, or a dnssd:// name from lpinfo -v)")
        }
        // Options for CUPS's ipp backend (`?contimeout=30&waitjob=false`) are not the printer's.
        self.uri = String(target.prefix { $0 != "?" })
        self.scheme = s
        self.host = String(filledBuffer: host)
        self.port = Int(port)
        self.resource = String(String(filledBuffer: resource).prefix { $0 != "?" })
    }

    /// The `ipp://`/`ipps://` address a `dnssd://` name announces, waiting at most `timeout` seconds.
    private static func resolve(_ uri: String, timeout: Int) throws -> String {
        var deadline = Date().addingTimeInterval(Double(timeout)).timeIntervalSince1970
        var resolved = [CChar](repeating: 0, count: 1024)
        // libcups calls this while it waits; 0 stops the wait.
        let stillWaiting: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
            Date().timeIntervalSince1970 < context!.load(as: Double.self) ? 1 : 0
        }
        let answer = withUnsafeMutablePointer(to: &deadline) { spcups__httpResolveURI(uri, &resolved, 1024, 0, stillWaiting, $0) }
        guard answer != nil else {
            throw PrintError(.notAvailable, "\(uri): no printer answered to this name within \(timeout) s (is it on, and is avahi-daemon running?)")
        }
        return String(filledBuffer: resolved)
    }
}

/// What a printer says of itself: its answer to Get-Printer-Attributes, asked at its own
/// address, not through a CUPS queue. Saved as a file (IPP's own encoding) so that a queue can
/// be made again while the printer is off, and turned into a queue's PPD by CUPS's own writer.
package enum PrinterAttributes {
    /// Asks the printer at `address` for all its attributes and its media database.
    package static func ask(_ address: PrinterAddress, timeout: Int = 10) throws -> IPPResponse {
        let connection = try HTTPConnection(host: address.host, port: address.port, encrypted: address.scheme == "ipps", timeout: timeout)
        let request = IPPRequest(IPP_OP_GET_PRINTER_ATTRIBUTES)
        request.add(IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", address.uri)
        request.add(IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", ["all", "media-col-database"])
        return try request.send(to: address.resource.isEmpty ? "/" : address.resource, over: connection,
                                doing: "\(address.uri) did not say what it supports")
    }

    /// The printer's `printer-up-time` (seconds since it started; IPP requires it), or nil
    /// when it does not say.
    package static func upTime(_ address: PrinterAddress, timeout: Int = 5) throws -> Int? {
        let connection = try HTTPConnection(host: address.host, port: address.port, encrypted: address.scheme == "ipps", timeout: timeout)
        let request = IPPRequest(IPP_OP_GET_PRINTER_ATTRIBUTES)
        request.add(IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", address.uri)
        request.add(IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", ["printer-up-time"])
        let answer = try request.send(to: address.resource.isEmpty ? "/" : address.resource, over: connection,
                                      doing: "\(address.uri) did not say how long it has been up")
        return answer.attribute("printer-up-time")?.integer
    }

    /// An answer saved by `save(_:to:)`.
    package static func read(from path: String) throws -> IPPResponse {
        try LibCUPS.load()
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PrintError.system(.inputUnreadable, path: path, "cannot be read", errno: errno) }
        defer { close(fd) }
        let ipp = spcups_ippNew()!
        let response = IPPResponse(taking: ipp)
        guard spcups_ippReadFile(fd, ipp) == IPP_STATE_DATA else {
            throw PrintError(.invalidInput, path: path, "is not a saved printer answer (IPP)")
        }
        return response
    }

    /// Writes `attributes` to `path` in IPP's encoding.
    package static func save(_ attributes: IPPResponse, to path: String) throws {
        try LibCUPS.load()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PrintError.system(.outputFailed, path: path, "cannot be written", errno: errno) }
        defer { close(fd) }
        guard spcups_ippWriteFile(fd, attributes.pointer) == IPP_STATE_DATA else {
            throw PrintError(.outputFailed, path: path, "cannot be written")
        }
    }

    /// The PPD CUPS writes for a printer from these attributes (as `lpadmin -m everywhere`
    /// does): its papers with their printable areas, sides, colour modes, qualities and
    /// resolutions, trays and media types.
    ///
    /// The printer's strings are made plain first: a printer (or whatever answers at its
    /// address) can say anything, and CUPS 2.4.2 copies some strings into the PPD as they are
    /// (CVE-2024-47175: a make-and-model of several lines adds `*FoomaticRIPCommandLine` or
    /// `*cupsFilter2` lines, which run programs as root's filters do). So no string keeps a
    /// control character, and none in text keeps a double quote: no value can end its line or
    /// its quotes, and the PPD has no line CUPS's writer did not mean.
    package static func ppd(from attributes: IPPResponse) throws -> String {
        try LibCUPS.load()
        plainStrings(in: attributes.pointer)
        var name = [CChar](repeating: 0, count: 1024)
        guard spcups__ppdCreateFromIPP(&name, 1024, attributes.pointer) != nil else {
            throw LibCUPS.lastError("CUPS cannot make a PPD from the printer's attributes", code: .invalidInput)
        }
        let path = String(filledBuffer: name)
        defer { unlink(path) }
        guard let text = try? String(contentsOfFile: path, encoding: .isoLatin1) else {
            throw PrintError(.inputUnreadable, path: path, "CUPS's PPD for the printer cannot be read")
        }
        return text
    }

    /// Every string value of `ipp` and of its collections, however deep: control characters
    /// (line breaks included) become spaces, and `"` becomes `'`.
    static func plainStrings(in ipp: OpaquePointer) {
        let strings = [IPP_TAG_TEXT, IPP_TAG_NAME, IPP_TAG_TEXTLANG, IPP_TAG_NAMELANG, IPP_TAG_KEYWORD, IPP_TAG_URI,
                       IPP_TAG_URISCHEME, IPP_TAG_CHARSET, IPP_TAG_LANGUAGE, IPP_TAG_MIMETYPE].map(\.rawValue)
        var attribute = spcups_ippFirstAttribute(ipp)
        while attribute != nil {
            let tag = spcups_ippGetValueTag(attribute)
            for index in 0..<spcups_ippGetCount(attribute) {
                if tag == IPP_TAG_BEGIN_COLLECTION {
                    if let member = spcups_ippGetCollection(attribute, index) { plainStrings(in: member) }
                } else if strings.contains(tag.rawValue & 0x7FFF_FFFF), let value = spcups_ippGetString(attribute, index, nil) {
                    let bytes = Array(String(cString: value).utf8)
                    let plain = bytes.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 == UInt8(ascii: "\"") ? UInt8(ascii: "'") : $0 }
                    if plain != bytes { _ = spcups_ippSetString(ipp, &attribute, index, String(decoding: plain, as: UTF8.self)) }
                }
            }
            attribute = spcups_ippNextAttribute(ipp)
        }
    }
}
