import CCupsShim

/// An attribute's values, copied out of its IPP message (which may then go).
package struct IPPValues: Sendable, Equatable {
    package var strings: [String]
    package var integers: [Int]
    package var string: String? { strings.first }
    package var integer: Int? { integers.first }

    init(_ attribute: IPPAttribute) {
        strings = attribute.strings
        integers = attribute.integers
    }
}

/// The job requests of the Print Center: list jobs, read one, cancel one, asked of cupsd as this
/// user.
extension CUPSJobQuery {
    /// Get-Jobs on `printerURI` (`ipp://localhost/` for every printer): not yet finished ones,
    /// or all that CUPS keeps with `includeFinished`; the user's own, or everyone's with
    /// `allUsers`; each job's `attributes`.
    package static func jobs(printerURI: String, includeFinished: Bool, allUsers: Bool, attributes: [String]) throws -> [[String: IPPValues]] {
        try LibCUPS.loadForRequests()
        let request = IPPRequest(IPP_OP_GET_JOBS)
        request.add(IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", printerURI)
        request.add(IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", LibCUPS.user)
        request.add(IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "which-jobs", includeFinished ? "all" : "not-completed")
        request.add(IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", attributes)
        request.addBoolean(IPP_TAG_OPERATION, "my-jobs", !allUsers)
        let response = try request.send(to: "/", doing: "cannot list the jobs on CUPS at \(LibCUPS.server)")
        return withExtendedLifetime(response) { response.groups(IPP_TAG_JOB).map { $0.mapValues(IPPValues.init) } }
    }

    /// Job `id`'s `attributes` now (empty when cupsd gives none).
    package static func job(_ id: Int, attributes: [String], doing what: String) throws -> [String: IPPValues] {
        let response = try self.attributes(ofJob: id, attributes, doing: what)
        return withExtendedLifetime(response) { (response.groups(IPP_TAG_JOB).first ?? [:]).mapValues(IPPValues.init) }
    }

    /// Cancel-Job for job `id`; a job already finished cannot be, and cupsd says so.
    package static func cancel(job id: Int) throws {
        try act(IPP_OP_CANCEL_JOB, onJob: id, doing: "cannot cancel job \(id)")
    }

    /// Hold-Job for job `id` (held until released); a job already printing or finished cannot
    /// be, and cupsd says so.
    package static func hold(job id: Int) throws {
        try act(IPP_OP_HOLD_JOB, onJob: id, doing: "cannot hold job \(id)")
    }

    /// Release-Job for job `id`; a job that is not held cannot be, and cupsd says so.
    package static func release(job id: Int) throws {
        try act(IPP_OP_RELEASE_JOB, onJob: id, doing: "cannot release job \(id)")
    }

    private static func act(_ operation: ipp_op_t, onJob id: Int, doing what: String) throws {
        try LibCUPS.loadForRequests()
        let request = IPPRequest(operation)
        request.add(IPP_TAG_OPERATION, IPP_TAG_URI, "job-uri", "ipp://localhost/jobs/\(id)")
        request.add(IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", LibCUPS.user)
        _ = try request.send(to: "/jobs/", doing: what)
    }
}
