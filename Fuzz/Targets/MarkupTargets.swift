import Foundation
import HandlerSupport
import MarkupHandler
import MarkupProtocol
import PrintHelpers

// Markup: the style sheets swiftprint reads itself (paged media: @page, margin boxes,
// string-set, target-counter), Markdown, the markup helper's replies as the handler reads
// them, and whole HTML documents through the helper's own request protocol.

let markupTargets = [
    FuzzTarget("css", reaches: "swiftprint's paged-media reader (CSSText: comments, blocks, strings, @media; @page selectors and margin boxes; string-set, target-counter, content)") { data, _ in
        let sheet = String(decoding: data, as: UTF8.self)
        let rules = PagedMediaRules(styleSheets: [sheet])
        _ = rules.hasMarginBoxes
        // The @page size and margins as WebKit's CSSOM reports them, read by PageStyle.
        _ = PageStyle.size(from: sheet)
        _ = PageStyle.length(sheet)
    },
    FuzzTarget("markdown", reaches: "cmark-gfm (GitHub's CommonMark parser, with its extensions) through MarkdownDocument: front matter, the title from the first heading, the page swiftprint wraps around it") { data, _ in
        _ = MarkdownHandler.html(markdown: String(decoding: data, as: UTF8.self))
    },
    // What the markup helper writes back, line by line, read as the handler reads it.
    FuzzTarget("helper-reply", reaches: "DescriptorLineReader, JSONDecoder on HelperReply<PageStyleReport>, and what the handler builds from a reply (page style, paged-media rules, the failure)") { data, scratch in
        let fd = open(scratch.file("reply", data), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { fatalError("cannot open the reply file") }
        defer { close(fd) }
        var lines = DescriptorLineReader(fd: fd)
        while let line = lines.next() {
            guard let reply = try? JSONDecoder().decode(HelperReply<PageStyleReport>.self, from: line) else { continue }
            if let failure = reply.failure { _ = failure.error.description }
            guard let answer = reply.answer else { continue }
            _ = PageStyle(rules: answer.rules)
            _ = PagedMediaRules(styleSheets: answer.styleTexts ?? [])
        }
    },
    // Slow (a WebKit load and print per input): fewer executions, the same time.
    FuzzTarget("markup", reaches: "the swiftprint-markup helper (WebKitGTK) through its request protocol: HTML in, PDF out; then qpdf, the page map and paged media", ciSeconds: 30) { data, scratch in
        do {
            try convert(data, name: "input.html", declared: "text/html", scratch) { settings in
                settings.info.pageRanges = PageRanges(ranges: [1...3])
                settings.limits.markupSeconds = 10
            }
        } catch let error as PrintError where error.message.contains("crashed") {
            fatalError("the markup renderer crashed: \(error)")
        }
    },
]
