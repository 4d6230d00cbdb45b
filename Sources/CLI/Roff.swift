/// A manual page's source in man(7) macros, written a section at a time.
struct Roff {
    private(set) var text: String

    init(title: String, section: Int, version: String, date: String) {
        text = ".TH \"\(title)\" \"\(section)\" \"\(date)\" \"swiftprint \(version)\" \"swiftprint\"\n"
    }

    /// Text safe as roff: backslashes doubled as `\e`, a line that would start with `.` or `'`
    /// (a request) protected, and each hyphen a minus, as man pages write options.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }

    mutating func line(_ roff: String) { text += roff + "\n" }

    mutating func section(_ name: String) { text += ".SH \"\(Self.escape(name))\"\n" }

    mutating func subsection(_ name: String) { text += ".SS \"\(Self.escape(name))\"\n" }

    /// A paragraph of plain text (escaped here), its wrapped lines joined.
    mutating func paragraph(_ plain: String) {
        text += ".PP\n" + Self.escape(plain.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")) + "\n"
    }

    /// A tagged paragraph: `tag` and `body` already roff.
    mutating func item(_ tag: String, _ body: String) { text += ".TP\n" + tag + "\n" + body + "\n" }

    /// Example commands, one a line, each with its comment, unfilled.
    mutating func example(_ lines: [String]) {
        text += ".PP\n.nf\n.RS 4\n" + lines.map { Self.escape($0) }.joined(separator: "\n") + "\n.RE\n.fi\n"
    }

    mutating func seeAlso(_ pages: [String]) {
        section("SEE ALSO")
        line(pages.map { page in
            guard let open = page.firstIndex(of: "(") else { return page }
            return "\\fB" + Self.escape(String(page[..<open])) + "\\fR" + page[open...]
        }.joined(separator: ", "))
    }
}
