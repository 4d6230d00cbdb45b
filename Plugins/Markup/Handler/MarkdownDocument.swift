import CMarkGFM
import Foundation

/// A Markdown document as cmark-gfm reads it: CommonMark with GitHub's tables, strikethrough,
/// autolinks and task lists, and footnotes. cmark-gfm reads any input in time about linear in
/// its length (its quadratic corners, BENCHMARKS.md says which, take seconds only on lines of
/// thousands of table cells); Ink, read before it, never returned from some inputs.
///
/// Owns cmark-gfm's parser (which owns the extensions the HTML renderer needs) and the tree it
/// built; both are freed with it.
final class MarkdownDocument {
    /// Raw HTML passes through, as in any Markdown reader for one's own documents: the page is
    /// printed by the markup handler, with what it allows any HTML file (no scripts unless the
    /// job asks, no files outside the document's folder).
    /// Table cells are aligned by style attributes, which a stylesheet's `text-align` does not
    /// override as it does `align`.
    private static let options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES
    private static let extensionNames = ["table", "strikethrough", "autolink", "tasklist"]
    /// cmark-gfm's extensions are registered once per process, before the first parser.
    private static let registered: Void = cmark_gfm_core_extensions_ensure_registered()

    private let parser: OpaquePointer
    private let root: OpaquePointer
    /// The YAML front matter's `title:`, if the document opened with front matter.
    private let frontMatterTitle: String?

    /// `markdown` read whole. Front matter (a first line `---`, `key: value` lines, and a closing
    /// `---` or `...`) is metadata, as static site generators read it: it does not print.
    init(_ markdown: String) {
        _ = Self.registered
        let (body, title) = Self.splittingFrontMatter(markdown)
        frontMatterTitle = title
        guard let parser = cmark_parser_new(Self.options) else { fatalError("cmark-gfm could not allocate a parser") }
        for name in Self.extensionNames {
            guard let found = cmark_find_syntax_extension(name) else { fatalError("cmark-gfm has no \(name) extension") }
            cmark_parser_attach_syntax_extension(parser, found)
        }
        var bytes = Array(body.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        guard let root = cmark_parser_finish(parser) else { fatalError("cmark-gfm returned no document") }
        self.parser = parser
        self.root = root
    }

    deinit {
        cmark_node_free(root)
        cmark_parser_free(parser)
    }

    /// The document's body as HTML.
    var html: String {
        guard let rendered = cmark_render_html(root, Self.options, cmark_parser_get_syntax_extensions(parser)) else {
            fatalError("cmark-gfm could not render HTML")
        }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// The text of the first top-level heading (`# Title`), or else the front matter's `title:`.
    var title: String? {
        guard let iterator = cmark_iter_new(root) else { return frontMatterTitle }
        defer { cmark_iter_free(iterator) }
        var heading: OpaquePointer?
        var text = ""
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if let open = heading {
                if node == open, event == CMARK_EVENT_EXIT { break }
                guard event == CMARK_EVENT_ENTER else { continue }
                if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(node) {
                    text += String(cString: literal)
                } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                    text += " "
                }
            } else if event == CMARK_EVENT_ENTER, type == CMARK_NODE_HEADING, cmark_node_get_heading_level(node) == 1 {
                heading = node
            }
        }
        guard heading != nil else { return frontMatterTitle }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? frontMatterTitle : trimmed
    }

    /// The document without its front matter, and the front matter's title.
    static func splittingFrontMatter(_ markdown: String) -> (body: String, title: String?) {
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        func bare(_ line: Substring) -> Substring {
            var line = line
            while let last = line.last, last == " " || last == "\t" || last == "\r" { line.removeLast() }
            return line
        }
        guard let first = lines.first, bare(first) == "---", lines.count > 2,
              let firstField = lines.dropFirst().first(where: { !bare($0).isEmpty }), isField(firstField),
              let close = lines.indices.dropFirst().first(where: { bare(lines[$0]) == "---" || bare(lines[$0]) == "..." })
        else { return (markdown, nil) }
        let title = lines[1 ..< close].lazy.compactMap { line -> String? in
            guard line.hasPrefix("title:") else { return nil }
            var value = line.dropFirst("title:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }.first
        lines.removeSubrange(0 ... close)
        return (lines.joined(separator: "\n"), title)
    }

    /// A YAML mapping's first line: a plain key, a colon, then a space or the line's end.
    private static func isField(_ line: Substring) -> Bool {
        guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else { return false }
        let key = line[..<colon]
        let after = line[line.index(after: colon)...]
        return key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " } && key.first != " "
            && (after.isEmpty || after.first == " " || after.first == "\r")
    }
}
