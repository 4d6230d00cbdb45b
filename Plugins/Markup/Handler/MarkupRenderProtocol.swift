import Foundation

// What the markup handler and swiftprint-markup (WebKit's process) say to each other: one JSON
// object per line, a request on the renderer's standard input and its response on standard
// output. A renderer serves every document of the process that started it, one at a time.

/// A request to the renderer.
package struct MarkupRenderRequest: Codable, Sendable {
    package enum Operation: String, Codable, Sendable {
        /// Load a document and report its title and @page rules.
        case load
        /// Print the loaded document to a PDF.
        case print
    }

    package var operation: Operation
    /// The file holding the HTML bytes (or `html`). A print request names its document too:
    /// the renderer loads it again when another was loaded since.
    package var document: String?
    /// The HTML itself, instead of `document`.
    package var html: String?
    /// The URL the document is loaded as (relative links resolve against it).
    package var baseURL: String?
    /// The only folder (a file: URL ending in "/") the page may read files from; nil: none.
    package var allowedFolderURL: String?
    /// Whether the page's own scripts run.
    package var scripts: Bool?
    /// Seconds the step may take.
    package var timeout: Double
    /// print: the PDF to write.
    package var output: String?
    /// print: page size in points (WebKit prints edge to edge; margins are the paginator's).
    package var pageWidth: Double?
    package var pageHeight: Double?
    /// print: blank space above the content on the first page only (UIKit's contentInsets.top).
    package var firstPageTopInset: Double?

    package init(operation: Operation, timeout: Double) {
        self.operation = operation
        self.timeout = timeout
    }
}

/// The renderer's answer.
package struct MarkupRenderResponse: Codable, Sendable {
    package enum Status: String, Codable, Sendable {
        case ok, timeout, loadFailed, crashed, setupFailed, printFailed, scriptFailed, badRequest
    }

    package var status: Status
    package var message: String?
    /// load: the document's title and its @page rules as WebKit parsed them.
    package var page: PageStyleReport?

    package init(status: Status, message: String? = nil, page: PageStyleReport? = nil) {
        self.status = status
        self.message = message
        self.page = page
    }
}

/// What the page says about its own pages, read from the CSSOM by a script swiftprint runs in
/// a world of its own (page scripts can neither see nor change it).
package struct PageStyleReport: Codable, Sendable {
    package struct Rule: Codable, Sendable {
        /// `""` for every page, `:first`, `:left`, `:right`.
        package var selector: String
        /// The `size` descriptor as written: `A5 landscape`, `210mm 148mm`, `letter`.
        package var size: String
        package var marginTop: String
        package var marginRight: String
        package var marginBottom: String
        package var marginLeft: String
    }

    package var title: String
    package var rules: [Rule]
    /// Style sheets whose rules the script could not read.
    package var unreadableSheets: [String]

    /// The script that makes this report: evaluates to an object of exactly these keys.
    /// `extraSheets` are the texts of style sheets the page links but may not read itself
    /// (file: URLs are each an origin of their own), read by the renderer from the document's
    /// folder and parsed here as constructed sheets, after the page's own.
    package static func script(extraSheets: [String] = []) -> String {
        let extra = (try? String(decoding: JSONEncoder().encode(extraSheets), as: UTF8.self)) ?? "[]"
        return """
            (() => {
              const rules = [], unreadable = [];
              const visit = (list) => {
                for (const rule of list) {
                  if (rule.type === CSSRule.PAGE_RULE) {
                    const s = rule.style;
                    rules.push({selector: rule.selectorText || "", size: s.getPropertyValue("size"),
                                 marginTop: s.getPropertyValue("margin-top"), marginRight: s.getPropertyValue("margin-right"),
                                 marginBottom: s.getPropertyValue("margin-bottom"), marginLeft: s.getPropertyValue("margin-left")});
                  } else if (rule.type === CSSRule.IMPORT_RULE && rule.styleSheet) {
                    read(rule.styleSheet);
                  } else if (rule.type === CSSRule.MEDIA_RULE && /(^|[ ,])(print|all)([ ,]|$)/.test(rule.media.mediaText)) {
                    visit(rule.cssRules);
                  }
                }
              };
              const read = (sheet) => {
                try { visit(sheet.cssRules); } catch (e) { unreadable.push(sheet.href || "(inline)"); }
              };
              for (const sheet of document.styleSheets) read(sheet);
              for (const text of \(extra)) {
                const sheet = new CSSStyleSheet();
                try { sheet.replaceSync(text); visit(sheet.cssRules); } catch (e) {}
              }
              return {title: document.title || "", rules, unreadableSheets: unreadable};
            })()
            """
    }
}

/// Lines from a file descriptor, without their newline: the renderer reads requests with it,
/// the markup handler answers.
package struct DescriptorLineReader {
    package let fd: Int32
    private var pending = Data()
    /// The other end has closed (or the descriptor failed).
    package private(set) var ended = false

    package init(fd: Int32) { self.fd = fd }

    /// The next line, reading (and waiting) as needed; nil at the end of input.
    package mutating func next() -> Data? {
        while true {
            if let line = bufferedLine() { return line }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending = Data() }
                return pending
            }
            readOnce()
        }
    }

    /// Reads everything that has arrived on a non-blocking descriptor; false once the other end
    /// has closed.
    package mutating func readAvailable() -> Bool {
        while readOnce() {}
        return !ended
    }

    /// One read; true when it got bytes (there may be more).
    @discardableResult
    package mutating func readOnce() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { pending.append(contentsOf: buffer[0..<n]); return true }
            if n < 0 && errno == EINTR { continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { ended = true }
            return false
        }
    }

    /// A whole line already read, if there is one.
    package mutating func bufferedLine() -> Data? {
        guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Data(pending[pending.startIndex..<newline])
        pending = Data(pending[(newline + 1)...])
        return line
    }
}
