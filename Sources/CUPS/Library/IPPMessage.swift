import CCupsShim
import PrintModel

/// A libcups option array (`cups_option_t`), freed with its owner.
package final class CUPSOptionArray {
    private var count: Int32 = 0
    private var pointer: UnsafeMutablePointer<cups_option_t>?

    package init(_ options: [(String, String)] = []) {
        for (name, value) in options { add(name, value) }
    }

    package func add(_ name: String, _ value: String) { count = spcups_cupsAddOption(name, value, count, &pointer) }

    /// Calls `body` with the array's count and pointer, valid until it returns: read as
    /// properties, the array could be freed before the C call that takes them ran (Swift ends
    /// an object's life at its last use).
    package func withOptions<T>(_ body: (Int32, UnsafeMutablePointer<cups_option_t>?) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(count, pointer) }
    }

    deinit { spcups_cupsFreeOptions(count, pointer) }
}

/// An IPP request (`ipp_t`) until it is sent: `send` hands it to libcups, which frees it.
package struct IPPRequest: ~Copyable {
    private let pointer: OpaquePointer

    /// A new request for `operation`, with the standard charset and language attributes.
    package init(_ operation: ipp_op_t) { pointer = spcups_ippNewRequest(operation) }

    deinit { spcups_ippDelete(pointer) }

    package func add(_ group: ipp_tag_t, _ tag: ipp_tag_t, _ name: String, _ value: String) {
        _ = spcups_ippAddString(pointer, group, tag, name, nil, value)
    }

    package func add(_ group: ipp_tag_t, _ tag: ipp_tag_t, _ name: String, _ value: Int32) {
        _ = spcups_ippAddInteger(pointer, group, tag, name, value)
    }

    package func add(_ group: ipp_tag_t, _ tag: ipp_tag_t, _ name: String, _ values: [String]) {
        let copies = values.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        copies.withUnsafeBufferPointer { _ = spcups_ippAddStrings(pointer, group, tag, name, Int32(values.count), nil, $0.baseAddress) }
    }

    package func addBoolean(_ group: ipp_tag_t, _ name: String, _ value: Bool) {
        _ = spcups_ippAddBoolean(pointer, group, name, value ? 1 : 0)
    }

    /// Sends the request to the CUPS server (or over `connection`, to a printer) at `resource`;
    /// the response, or libcups's message (saying `what` failed) when there is none or its
    /// status is an error.
    package consuming func send(to resource: String, over connection: HTTPConnection? = nil, doing what: String) throws -> IPPResponse {
        let request = pointer
        discard self
        guard let response = spcups_cupsDoRequest(connection?.http, request, resource) else {
            throw LibCUPS.lastError(what, code: .notAvailable)
        }
        let message = IPPResponse(taking: response)
        if spcups_ippGetStatusCode(response).rawValue > IPP_STATUS_OK_EVENTS_COMPLETE.rawValue { throw LibCUPS.lastError(what) }
        return message
    }
}

/// An IPP response from libcups, freed with its owner.
package final class IPPResponse {
    let pointer: OpaquePointer

    package init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { spcups_ippDelete(pointer) }

    package func attribute(_ name: String) -> IPPAttribute? {
        spcups_ippFindAttribute(pointer, name, IPP_TAG_ZERO).map { IPPAttribute($0, owner: self) }
    }

    /// Each group of attributes tagged `tag` (one per job in a Get-Jobs response), as name → attribute.
    package func groups(_ tag: ipp_tag_t) -> [[String: IPPAttribute]] {
        var groups: [[String: IPPAttribute]] = []
        var current: [String: IPPAttribute]?
        var attr = spcups_ippFirstAttribute(pointer)
        while let a = attr {
            // A nameless attribute separates groups.
            if let name = spcups_ippGetName(a), spcups_ippGetGroupTag(a) == tag {
                current = current ?? [:]
                current![String(cString: name)] = IPPAttribute(a, owner: self)
            } else if let c = current {
                groups.append(c)
                current = nil
            }
            attr = spcups_ippNextAttribute(pointer)
        }
        if let c = current { groups.append(c) }
        return groups
    }
}

/// One attribute of an IPP message. It holds the message (or whatever owns it) alive: an
/// attribute read from a response nobody kept (`request.send(…)?.attribute(name)?.texts`)
/// otherwise read freed memory once Swift released the response after its last use. Every
/// read goes through `read`, which keeps the owner alive across the C calls: a stored
/// reference alone does not stop the optimiser from ending it at the pointer's last use.
package struct IPPAttribute {
    private let pointer: OpaquePointer
    private let owner: AnyObject
    package init(_ pointer: OpaquePointer, owner: AnyObject) { self.pointer = pointer; self.owner = owner }

    private func read<T>(_ body: (OpaquePointer) -> T) -> T { withExtendedLifetime(owner) { body(pointer) } }

    package var count: Int { read { Int(spcups_ippGetCount($0)) } }
    package var strings: [String] {
        read { a in (0..<Int(spcups_ippGetCount(a))).compactMap { spcups_ippGetString(a, Int32($0), nil).map { String(cString: $0) } } }
    }
    package var string: String? { strings.first }
    package var integers: [Int] { read { a in (0..<Int(spcups_ippGetCount(a))).map { Int(spcups_ippGetInteger(a, Int32($0))) } } }
    package var integer: Int? { integers.first }
    package var boolean: Bool? { read { a in spcups_ippGetCount(a) > 0 ? spcups_ippGetBoolean(a, 0) != 0 : nil } }
    package var valueTag: ipp_tag_t { read { spcups_ippGetValueTag($0) } }

    /// A range attribute's bounds (`copies-supported`: 1-999).
    package var range: ClosedRange<Int>? {
        read { a in
            guard spcups_ippGetCount(a) > 0, spcups_ippGetValueTag(a) == IPP_TAG_RANGE else { return nil }
            var upper: Int32 = 0
            let lower = spcups_ippGetRange(a, 0, &upper)
            return lower <= upper ? Int(lower)...Int(upper) : nil
        }
    }

    /// Resolutions as people write them: "600dpi", "300x600dpi".
    package var resolutions: [String] {
        read { a in
            (0..<Int(spcups_ippGetCount(a))).map { i in
                var y: Int32 = 0
                var units = IPP_RES_PER_INCH
                let x = spcups_ippGetResolution(a, Int32(i), &y, &units)
                let unit = units == IPP_RES_PER_CM ? "dpcm" : "dpi"
                return x == y ? "\(x)\(unit)" : "\(x)x\(y)\(unit)"
            }
        }
    }

    /// Each value as text, whatever its type: keywords and names as they are, integers as numbers.
    package var texts: [String] {
        switch valueTag {
        case IPP_TAG_INTEGER, IPP_TAG_ENUM: return integers.map(String.init)
        case IPP_TAG_RESOLUTION: return resolutions
        case IPP_TAG_BOOLEAN: return read { a in (0..<Int(spcups_ippGetCount(a))).map { spcups_ippGetBoolean(a, Int32($0)) != 0 ? "true" : "false" } }
        default: return strings
        }
    }
}
