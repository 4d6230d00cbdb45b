import SwiftPrint

/// swiftprint-queue(7), the administrator's page: its prose written in Markdown
/// (`docs/swiftprint-queue.7.md`, kept beside the code it describes), and the options a print
/// job and the queue's defaults may set, from their declarations.
struct QueueManualPage {
    let version: String
    let date: String
    /// The Markdown: `## ` sections, `### ` subsections, paragraphs, `- ` lists, ```` ```sh ````
    /// blocks, `code` and **bold**. The line `<!-- job options -->` stands for the options' list.
    let markdown: String

    var text: String {
        var r = Roff(title: "SWIFTPRINT-QUEUE", section: 7, version: version, date: date)
        r.section("NAME")
        r.line("swiftprint\\-queue \\- swiftprint's CUPS queues: saving jobs as PDF, printers behind swiftprint, AirPrint sharing, limits and logs")
        MarkdownToRoff.render(markdown, into: &r) { r in options(into: &r) }
        r.seeAlso(["swiftprint(1)", "swiftprint-install(1)", "lp(1)", "lpstat(1)", "lpadmin(8)", "cupsd(8)"])
        return r.text
    }

    /// Every option a print job may set, by its IPP/CUPS name, with its values.
    func options(into r: inout Roff) {
        for group in JobSettings.optionGroups {
            let options = group.options.filter { $0.sources.contains(.printJob) || $0.sources.contains(.queueDefaults) }
            guard !options.isEmpty else { continue }
            r.subsection(group.title)
            for option in options {
                let names = ([option.name] + option.aliases).map { "\\fB" + Roff.escape($0) + "\\fR" }.joined(separator: ", ")
                var body = Roff.escape(option.help)
                if !option.keywords.isEmpty { body += "\n.br\nValues: " + Roff.escape(option.keywords.joined(separator: ", ")) + "." }
                if !option.sources.contains(.printJob) { body += "\n.br\nThe queue's default only; a job cannot set it." }
                if let ppd = option.ppd {
                    body += "\n.br\nQueue default: " + Roff.escape(ppd.defaultKeyword) + " (" + Roff.escape(ppd.choices.map(\.keyword).joined(separator: ", ")) + ")."
                }
                r.item(names, body)
            }
        }
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
