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

/// The Markdown the manual's prose is written in, as man(7) source.
enum MarkdownToRoff {
    static let placeholder = "<!-- job options -->"

    static func render(_ markdown: String, into r: inout Roff, options: (inout Roff) -> Void) {
        var paragraph: [String] = []
        var inCode = false
        func flush(_ r: inout Roff) {
            guard !paragraph.isEmpty else { return }
            let text = paragraph.joined(separator: " ")
            if text.hasPrefix("- ") {
                r.line(".IP \\(bu 2\n" + inline(String(text.dropFirst(2))))
            } else {
                r.line(".PP\n" + inline(text))
            }
            paragraph = []
        }
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if raw.hasPrefix("```") {
                flush(&r)
                r.line(inCode ? ".RE\n.fi" : ".PP\n.nf\n.RS 4")
                inCode.toggle()
                continue
            }
            if inCode { r.line(Roff.escape(raw)); continue }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line == placeholder { flush(&r); options(&r); continue }
            if line.hasPrefix("## ") { flush(&r); r.section(heading(line.dropFirst(3)).uppercased()); continue }
            if line.hasPrefix("### ") { flush(&r); r.subsection(heading(line.dropFirst(4))); continue }
            if line.isEmpty || line.hasPrefix("- ") { flush(&r) }
            if !line.isEmpty { paragraph.append(line) }
        }
        flush(&r)
    }

    /// A heading's words, without Markdown's marks (man(7) sets headings in bold anyway).
    static func heading(_ text: Substring) -> String {
        text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
    }

    /// `code` and **bold** as bold, a link as its text and address; everything else escaped.
    static func inline(_ text: String) -> String {
        var out = "", bold = false
        var rest = Substring(text.replacing(/\[([^\]]+)\]\(([^)]+)\)/) { "\($0.1) <\($0.2)>" })
        while let i = rest.firstIndex(where: { $0 == "`" || $0 == "*" }) {
            out += Roff.escape(String(rest[..<i]))
            if rest[i] == "*", rest[i...].hasPrefix("**") {
                out += bold ? "\\fR" : "\\fB"; bold.toggle()
                rest = rest[rest.index(i, offsetBy: 2)...]
            } else if rest[i] == "`", let end = rest[rest.index(after: i)...].firstIndex(of: "`") {
                out += "\\fB" + Roff.escape(String(rest[rest.index(after: i)..<end])) + (bold ? "" : "\\fR")
                rest = rest[rest.index(after: end)...]
            } else {
                out += Roff.escape(String(rest[i]))
                rest = rest[rest.index(after: i)...]
            }
        }
        return out + Roff.escape(String(rest)) + (bold ? "\\fR" : "")
    }
}
