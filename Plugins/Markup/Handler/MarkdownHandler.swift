import Foundation
import HandlerSupport

/// Markdown, printed as HTML through the markup handler: cmark-gfm turns it into HTML, which gets a
/// print stylesheet of swiftprint's (its @page margins apply unless the job sets its own) and
/// is loaded as if it sat where the Markdown file is, so relative images work.
///
/// Reads what `MarkupHandler` reads. The file is read as UTF-8 (a UTF-8 BOM is skipped;
/// bytes that are not UTF-8 show as U+FFFD).
public struct MarkdownHandler: ContentHandler {
    public let name = "markdown"
    public let contentTypes = ["net.daringfireball.markdown"]

    public init() {}

    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        guard let bytes = FileBytes.read(input.path) else {
            throw PrintError.system(.inputUnreadable, path: input.path, "cannot read the file", errno: errno)
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let html = Self.html(markdown: text)
        let formatter = MarkupTextPrintFormatter(markupText: html, madeFrom: input.path)
        formatter.documentName = input.displayName
        if settings.localFiles == .documentFolder {
            formatter.baseURL = URL(fileURLWithPath: input.path).standardizedFileURL
            formatter.allowedFolder = settings.markup.allowedFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
        }
        MarkupHandler.configure(formatter, settings: settings)
        return formatter
    }

    /// A whole HTML document for `markdown`, titled by its first top-level heading, or else its
    /// front matter's title (neither: the job's title is the file's name).
    package static func html(markdown: String) -> String {
        let document = MarkdownDocument(markdown)
        let title = document.title.map { "<title>\(escaped($0))</title>" } ?? ""
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8">\(title)<style>\(stylesheet)</style></head>
            <body>\(document.html)</body></html>
            """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Readable print typography: a serif body, sans-serif headings kept with what follows,
    /// code in a monospace face on a light ground, tables ruled, images no wider than the page,
    /// a task's box where its bullet would be, and footnotes small under a rule (their links
    /// back, for a screen, do not print).
    static let stylesheet = """
        @page { margin: 20mm 18mm; }
        html { font: 11pt/1.45 "Noto Serif", "DejaVu Serif", serif; color: #111; }
        body { margin: 0; }
        h1, h2, h3, h4, h5, h6 { font-family: "Noto Sans", "DejaVu Sans", sans-serif; line-height: 1.2;
          break-after: avoid; margin: 1.2em 0 0.5em; }
        h1 { font-size: 20pt; } h2 { font-size: 15pt; } h3 { font-size: 12.5pt; } h4, h5, h6 { font-size: 11pt; }
        p, ul, ol, blockquote, pre, table { margin: 0 0 0.8em; }
        pre, code { font-family: "Noto Sans Mono", "DejaVu Sans Mono", monospace; font-size: 9.5pt; }
        pre { background: #f3f3f3; padding: 6pt 8pt; white-space: pre-wrap; break-inside: avoid; }
        code { background: #f3f3f3; padding: 0 2pt; } pre code { background: none; padding: 0; }
        blockquote { border-left: 3pt solid #ccc; margin-left: 0; padding-left: 10pt; color: #444; }
        table { border-collapse: collapse; } th, td { border: 0.5pt solid #999; padding: 3pt 6pt; text-align: left; }
        th { background: #eee; } tr { break-inside: avoid; }
        img { max-width: 100%; } hr { border: 0; border-top: 0.5pt solid #999; }
        li:has(> input[type=checkbox]:first-child) { list-style: none; } li > input[type=checkbox] { margin: 0 4pt 0 -14pt; }
        section.footnotes { border-top: 0.5pt solid #999; margin-top: 1.5em; padding-top: 0.5em; font-size: 9.5pt; }
        a.footnote-backref { display: none; }
        a { color: inherit; }
        """
}
