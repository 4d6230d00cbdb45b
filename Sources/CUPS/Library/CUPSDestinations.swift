import CCupsShim
import Foundation
import PrintModel

/// The destinations libcups knows (`cupsGetDests2`: queues, their instances, IPP Everywhere
/// printers found on the network), freed with their owner.
package final class CUPSDestinations {
    private var count: Int32 = 0
    private var dests: UnsafeMutablePointer<cups_dest_t>?

    package init() throws {
        try LibCUPS.loadForRequests()
        count = spcups_cupsGetDests2(nil, &dests)
        // Zero destinations and an unreachable server look alike here: libcups says which.
        if count == 0, spcups_cupsLastError().rawValue > IPP_STATUS_OK_EVENTS_COMPLETE.rawValue {
            throw LibCUPS.lastError("cannot reach the CUPS server at \(LibCUPS.server)", code: .notAvailable)
        }
    }

    deinit { spcups_cupsFreeDests(count, dests) }

    package var indices: Range<Int> { 0..<Int(count) }

    func destination(at index: Int) -> UnsafeMutablePointer<cups_dest_t> { dests! + index }

    /// `Office`, or `Office/duplex` for an instance.
    package func name(at index: Int) -> String {
        let d = destination(at: index).pointee
        let queue = String(cString: d.name)
        return d.instance.map { queue + "/" + String(cString: $0) } ?? queue
    }

    package func isDefault(at index: Int) -> Bool { destination(at: index).pointee.is_default != 0 }

    /// The index of `name`, or of the default destination for nil.
    package func index(of name: String?) throws -> Int {
        if let name {
            if let i = indices.first(where: { self.name(at: $0) == name }) { return i }
            let known = indices.map { self.name(at: $0) }
            throw PrintError(.notAvailable, "no printer called \(name)" + (known.isEmpty ? " (CUPS at \(LibCUPS.server) has none)" : "; there are: \(known.joined(separator: ", "))"))
        }
        if let i = indices.first(where: isDefault(at:)) { return i }
        throw PrintError(.notAvailable, "no default printer is set: name one with -d (swiftprint printers lists them)")
    }

    /// The server's answer for printer attributes `names` of destination `index`, asked at its
    /// `printer-uri-supported` (for what `cupsGetDests2` does not ask, and `cupsFindDest…` cannot
    /// read); nil when the destination has no such address or the server does not answer.
    package func printerAttributes(_ names: [String], at index: Int) -> IPPResponse? {
        guard let uri = option("printer-uri-supported", at: index), let address = try? PrinterAddress(uri: uri) else { return nil }
        let request = IPPRequest(IPP_OP_GET_PRINTER_ATTRIBUTES)
        request.add(IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", address.uri)
        request.add(IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", LibCUPS.user)
        request.add(IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", names)
        return try? request.send(to: address.resource, doing: "cannot ask \(name(at: index)) for \(names.joined(separator: ", "))")
    }

    /// The destination's own option `name` (`printer-state`, `device-uri`, …).
    package func option(_ name: String, at index: Int) -> String? {
        let d = destination(at: index).pointee
        for i in 0..<Int(d.num_options) where String(cString: d.options[i].name) == name {
            return String(cString: d.options[i].value)
        }
        return nil
    }
}

/// What the server says a destination supports (`cups_dinfo_t`), freed with its owner, and the
/// job requests made with it. Keeps its destination list alive, since it points into it.
package final class CUPSDestinationInfo {
    private let list: CUPSDestinations
    private let index: Int
    private let info: OpaquePointer

    package init(_ list: CUPSDestinations, _ index: Int) throws {
        self.list = list
        self.index = index
        guard let info = spcups_cupsCopyDestInfo(nil, list.destination(at: index)) else {
            throw LibCUPS.lastError("cannot ask \(list.name(at: index)) what it supports", code: .notAvailable)
        }
        self.info = info
    }

    deinit { spcups_cupsFreeDestInfo(info) }

    private var destination: UnsafeMutablePointer<cups_dest_t> { list.destination(at: index) }

    /// The values of `option-supported` (libcups adds "-supported" to the name).
    package func supported(_ option: String) -> [String] {
        spcups_cupsFindDestSupported(nil, destination, info, option).map { IPPAttribute($0, owner: self).texts } ?? []
    }

    /// The values of `option-ready` (the media loaded now).
    package func ready(_ option: String) -> [String] {
        spcups_cupsFindDestReady(nil, destination, info, option).map { IPPAttribute($0, owner: self).texts } ?? []
    }

    /// The value of `option-default`.
    package func defaultValue(_ option: String) -> String? {
        spcups_cupsFindDestDefault(nil, destination, info, option).flatMap { IPPAttribute($0, owner: self).texts.first }
    }

    /// The most copies a job may ask for (`copies-supported`'s upper bound).
    package var maximumCopies: Int? {
        spcups_cupsFindDestSupported(nil, destination, info, "copies").flatMap { IPPAttribute($0, owner: self).range?.upperBound }
    }

    /// The values of the printer attribute `name` itself (`pwg-raster-document-sheet-back`),
    /// which libcups gives no call to read (`cupsFindDest…` read only `-supported`, `-default`
    /// and `-ready` names): asked again, alone, of the server, at the destination's
    /// `printer-uri-supported`. Empty when the destination has no such address or says nothing.
    package func printerAttribute(_ name: String) -> [String] {
        list.printerAttributes([name], at: index)?.attribute(name)?.texts ?? []
    }

    /// Each paper's unprintable edges in points, from libcups's media database (the printer's
    /// `media-col-database`, or the queue's PPD).
    package var mediaMargins: [(media: String, edges: EdgeInsets)] {
        let count = spcups_cupsGetDestMediaCount(nil, destination, info, 0)
        return (0..<max(0, count)).compactMap { n in
            var size = cups_size_t()
            guard spcups_cupsGetDestMediaByIndex(nil, destination, info, n, 0, &size) != 0 else { return nil }
            let name = withUnsafeBytes(of: size.media) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // Hundredths of a millimetre, to points.
            func points(_ v: Int32) -> Double { Double(v) * 72 / 2540 }
            return (name, EdgeInsets(top: points(size.top), left: points(size.left), bottom: points(size.bottom), right: points(size.right)))
        }
    }

    // MARK: A job (cupsCreateDestJob, cupsStartDestDocument, cupsWriteRequestData, cupsFinishDestDocument)

    /// Creates a job titled `title` with IPP job `options`; its id, or the server's refusal.
    package func createJob(title: String, options: [(String, String)]) throws -> Int32 {
        var job: Int32 = 0
        let created = CUPSOptionArray(options).withOptions { count, array in
            spcups_cupsCreateDestJob(nil, destination, info, &job, title, count, array)
        }
        guard created.rawValue <= IPP_STATUS_OK_EVENTS_COMPLETE.rawValue, job > 0 else {
            throw LibCUPS.lastError("\(list.name(at: index)) refused the job")
        }
        return job
    }

    /// Cancels job `job`, whatever it has received (a job that failed half-way).
    package func cancelJob(_ job: Int32) { _ = spcups_cupsCancelDestJob(nil, destination, job) }

    /// Sends one document of `job`: its bytes from `read` (an empty chunk ends them), as
    /// `format`, named `name`; `last` closes the job.
    package func sendDocument(job: Int32, name: String, format: String, last: Bool, read: () throws -> Data) throws {
        let printer = list.name(at: index)
        guard spcups_cupsStartDestDocument(nil, destination, info, job, name, format, 0, nil, last ? 1 : 0) == HTTP_STATUS_CONTINUE else {
            throw LibCUPS.lastError("\(printer) did not accept \(name)")
        }
        while true {
            let chunk = try read()
            if chunk.isEmpty { break }
            let status = chunk.withUnsafeBytes { spcups_cupsWriteRequestData(nil, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
            guard status == HTTP_STATUS_CONTINUE else { throw LibCUPS.lastError("sending \(name) to \(printer) failed") }
        }
        guard spcups_cupsFinishDestDocument(nil, destination, info).rawValue <= IPP_STATUS_OK_EVENTS_COMPLETE.rawValue else {
            throw LibCUPS.lastError("\(printer) did not take \(name)")
        }
    }
}
