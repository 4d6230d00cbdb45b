import CCupsClientShim
import HandlerSupport

/// libcups, opened on first use (see CCupsClientShim for why the executable does not link it).
enum LibCUPS {
    private static let loaded: Result<Void, PrintError> = {
        var error: UnsafePointer<CChar>?
        if spcups_load(&error) == 0 { return .success(()) }
        return .failure(PrintError(.notAvailable, error.map { String(cString: $0) } ?? "cannot load libcups"))
    }()

    /// Throws when libcups cannot be opened; call before any `spcups_` function.
    static func load() throws { try loaded.get() }

    /// libcups's last error as one line, for `what` ("cannot create the job").
    static func lastError(_ what: String, code: PrintError.Code = .jobFailed) -> PrintError {
        let text = spcups_cupsLastErrorString().map { String(cString: $0) } ?? "unknown error"
        let status = spcups_cupsLastError()
        let hint = status == IPP_STATUS_ERROR_SERVICE_UNAVAILABLE ? " (is cupsd running?)" : ""
        return PrintError(code, "\(what): \(text)\(hint)", status: Int32(status.rawValue))
    }

    /// The user name CUPS sends with requests.
    static var user: String { spcups_cupsUser().map { String(cString: $0) } ?? "" }
    /// The server libcups talks to (`CUPS_SERVER`, client.conf, or the local socket).
    static var server: String { spcups_cupsServer().map { String(cString: $0) } ?? "localhost" }
}

/// A libcups option array (`cups_option_t`), freed with its owner.
final class CUPSOptionArray {
    private(set) var count: Int32 = 0
    private(set) var pointer: UnsafeMutablePointer<cups_option_t>?

    init(_ options: [(String, String)] = []) {
        for (name, value) in options { add(name, value) }
    }

    func add(_ name: String, _ value: String) { count = spcups_cupsAddOption(name, value, count, &pointer) }

    deinit { spcups_cupsFreeOptions(count, pointer) }
}

/// An IPP request (`ipp_t`) until it is sent: `send` hands it to libcups, which frees it.
struct IPPRequest: ~Copyable {
    private let pointer: OpaquePointer

    /// A new request for `operation`, with the standard charset and language attributes.
    init(_ operation: ipp_op_t) { pointer = spcups_ippNewRequest(operation) }

    deinit { spcups_ippDelete(pointer) }

    func add(_ group: ipp_tag_t, _ tag: ipp_tag_t, _ name: String, _ value: String) {
        _ = spcups_ippAddString(pointer, group, tag, name, nil, value)
    }

    func add(_ group: ipp_tag_t, _ tag: ipp_tag_t, _ name: String, _ value: Int32) {
        _ = spcups_ippAddInteger(pointer, group, tag, name, value)
    }

    func add(_ group: ipp_tag_t, _ tag: ipp_tag_t, _ name: String, _ values: [String]) {
        let copies = values.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        copies.withUnsafeBufferPointer { _ = spcups_ippAddStrings(pointer, group, tag, name, Int32(values.count), nil, $0.baseAddress) }
    }

    func addBoolean(_ group: ipp_tag_t, _ name: String, _ value: Bool) {
        _ = spcups_ippAddBoolean(pointer, group, name, value ? 1 : 0)
    }

    /// Sends the request to the CUPS server at `resource`; the response, or libcups's message
    /// (saying `what` failed) when there is none or its status is an error.
    consuming func send(to resource: String, doing what: String) throws -> IPPResponse {
        let request = pointer
        discard self
        guard let response = spcups_cupsDoRequest(nil, request, resource) else {
            throw LibCUPS.lastError(what, code: .notAvailable)
        }
        let message = IPPResponse(taking: response)
        if spcups_ippGetStatusCode(response).rawValue > IPP_STATUS_OK_EVENTS_COMPLETE.rawValue { throw LibCUPS.lastError(what) }
        return message
    }
}

/// An IPP response from libcups, freed with its owner.
final class IPPResponse {
    private let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { spcups_ippDelete(pointer) }

    func attribute(_ name: String) -> IPPAttribute? {
        spcups_ippFindAttribute(pointer, name, IPP_TAG_ZERO).map(IPPAttribute.init)
    }

    /// Each group of attributes tagged `tag` (one per job in a Get-Jobs response), as name → attribute.
    func groups(_ tag: ipp_tag_t) -> [[String: IPPAttribute]] {
        var groups: [[String: IPPAttribute]] = []
        var current: [String: IPPAttribute]?
        var attr = spcups_ippFirstAttribute(pointer)
        while let a = attr {
            // A nameless attribute separates groups.
            if let name = spcups_ippGetName(a), spcups_ippGetGroupTag(a) == tag {
                current = current ?? [:]
                current![String(cString: name)] = IPPAttribute(a)
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

/// One attribute of an IPP message, valid while its message lives.
struct IPPAttribute {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    var count: Int { Int(spcups_ippGetCount(pointer)) }
    var strings: [String] { (0..<count).compactMap { spcups_ippGetString(pointer, Int32($0), nil).map { String(cString: $0) } } }
    var string: String? { strings.first }
    var integers: [Int] { (0..<count).map { Int(spcups_ippGetInteger(pointer, Int32($0))) } }
    var integer: Int? { count > 0 ? Int(spcups_ippGetInteger(pointer, 0)) : nil }
    var boolean: Bool? { count > 0 ? spcups_ippGetBoolean(pointer, 0) != 0 : nil }
    var valueTag: ipp_tag_t { spcups_ippGetValueTag(pointer) }

    /// A range attribute's bounds (`copies-supported`: 1-999).
    var range: ClosedRange<Int>? {
        guard count > 0, valueTag == IPP_TAG_RANGE else { return nil }
        var upper: Int32 = 0
        let lower = spcups_ippGetRange(pointer, 0, &upper)
        return lower <= upper ? Int(lower)...Int(upper) : nil
    }

    /// Resolutions as people write them: "600dpi", "300x600dpi".
    var resolutions: [String] {
        (0..<count).map { i in
            var y: Int32 = 0
            var units = IPP_RES_PER_INCH
            let x = spcups_ippGetResolution(pointer, Int32(i), &y, &units)
            let unit = units == IPP_RES_PER_CM ? "dpcm" : "dpi"
            return x == y ? "\(x)\(unit)" : "\(x)x\(y)\(unit)"
        }
    }

    /// Each value as text, whatever its type: keywords and names as they are, integers as numbers.
    var texts: [String] {
        switch valueTag {
        case IPP_TAG_INTEGER, IPP_TAG_ENUM: return integers.map(String.init)
        case IPP_TAG_RESOLUTION: return resolutions
        case IPP_TAG_BOOLEAN: return (0..<count).map { spcups_ippGetBoolean(pointer, Int32($0)) != 0 ? "true" : "false" }
        default: return strings
        }
    }
}
