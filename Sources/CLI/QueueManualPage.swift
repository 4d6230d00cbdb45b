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
                body += ManualPages.values(option)
                if !option.sources.contains(.printJob) { body += "\n.br\nThe queue's default only; a job cannot set it." }
                if let ppd = option.ppd {
                    body += "\n.br\nQueue default: " + Roff.escape(ppd.defaultKeyword) + " (" + Roff.escape(ppd.choices.map(\.keyword).joined(separator: ", ")) + ")."
                }
                r.item(names, body)
            }
        }
    }
}
