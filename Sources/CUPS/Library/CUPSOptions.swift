import CCupsShim

/// CUPS option strings (`media=A4 page-ranges=1-2 swiftprint-header='{title}'`, as a filter gets
/// them in argv[5]) read by libcups, which knows their quoting and escaping rules.
public enum CUPSOptions {
    /// The `name=value` pairs of `text`; a bare `name` is `name=true`, `noname` is `name=false`,
    /// as `lp -o` means them.
    public static func parse(_ text: String) throws -> [(name: String, value: String)] {
        try LibCUPS.load()
        var options: UnsafeMutablePointer<cups_option_t>?
        let count = Int(spcups_cupsParseOptions(text, 0, &options))
        defer { spcups_cupsFreeOptions(Int32(count), options) }
        guard let options else { return [] }
        return (0..<count).map { i in
            (name: String(cString: options[i].name), value: String(cString: options[i].value))
        }
    }

    /// Every value of an option that cupsd repeats (one `document-name-supplied=` per document),
    /// which `parse` would fold into the last one. Quotes and backslashes as libcups reads them.
    public static func allValues(of name: String, in text: String) -> [String] {
        var values: [String] = [], token = "", quote: Character?, escaped = false
        func finish() {
            if token.hasPrefix(name + "=") { values.append(String(token.dropFirst(name.count + 1))) }
            token = ""
        }
        for c in text {
            if escaped { token.append(c); escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case "'", "\"":
                if quote == nil { quote = c } else if quote == c { quote = nil } else { token.append(c) }
            case " " where quote == nil, "\t" where quote == nil: finish()
            default: token.append(c)
            }
        }
        finish()
        return values
    }
}

/// What cupsd holds of a job that it does not pass to the filter.
public enum CUPSJobQuery {
    /// Which of `names` job `id` holds as IPP collections. cupsd leaves collections out of a
    /// filter's options (argv[5]), and `lp -o` sends any value that starts with `{` as one, so a
    /// header template written `{title}…` would vanish without a word: the filter asks cupsd.
    /// Throws when cupsd cannot be asked.
    public static func collections(ofJob id: Int, among names: [String]) throws -> [String] {
        let response = try attributes(ofJob: id, names, doing: "cannot read job \(id)'s attributes")
        return withExtendedLifetime(response) {
            (response.groups(IPP_TAG_JOB).first ?? [:]).filter { $0.value.valueTag == IPP_TAG_BEGIN_COLLECTION }.keys.sorted()
        }
    }

    /// cupsd's answer to Get-Job-Attributes for job `id`, asked as this user: `names` only.
    package static func attributes(ofJob id: Int, _ names: [String], doing what: String) throws -> IPPResponse {
        try LibCUPS.loadForRequests()
        let request = IPPRequest(IPP_OP_GET_JOB_ATTRIBUTES)
        request.add(IPP_TAG_OPERATION, IPP_TAG_URI, "job-uri", "ipp://localhost/jobs/\(id)")
        request.add(IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", LibCUPS.user)
        request.add(IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", names)
        return try request.send(to: "/jobs/", doing: what)
    }
}
