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
