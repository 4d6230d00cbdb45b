import Foundation
import PrintOptions

// Each helper's own part of a request (`HelperRequest.task`) and of a reply (`answer`).

/// swiftprint-image: decode `input` into `output`, one page per image.
package struct ImageDecodingTask: Codable, Sendable {
    /// Every frame of an animated GIF, one per page (else the first).
    package var allGIFFrames: Bool
    /// The decompression-bomb limit.
    package var maxPixels: Int
    package init(allGIFFrames: Bool, maxPixels: Int) { self.allGIFFrames = allGIFFrames; self.maxPixels = maxPixels }
}

/// swiftprint-image's answer: each page's pixels per inch, when the file states them.
package typealias ImageResolutions = [Double?]

/// swiftprint-map: draw `input` into `output`, each page one sheet's map: a content area of
/// `width` × `height` points with `margin` points around it, where a poster prints its marks.
/// The job's settings the engine reads go with it (not the whole JobSettings: a smaller request
/// is quicker to write and read).
package struct MapDrawingTask: Codable, Sendable {
    package var width: Double
    package var height: Double
    package var margin: Double
    package var map: MapSettings
    package var localFiles: JobSettings.LocalFiles
    package init(width: Double, height: Double, margin: Double, map: MapSettings, localFiles: JobSettings.LocalFiles) {
        self.width = width; self.height = height; self.margin = margin; self.map = map; self.localFiles = localFiles
    }
}

/// swiftprint-markup: load a document (`input`, or `html`) and report its @page rules, or print
/// the loaded one to `output`.
package struct MarkupTask: Codable, Sendable {
    package enum Operation: String, Codable, Sendable {
        /// Load a document and report its title and @page rules (answer: `PageStyleReport`).
        case load
        /// Print the loaded document to a PDF; a print request names its document too, which the
        /// renderer loads again when another was loaded since.
        case print
    }

    package var operation: Operation
    /// The HTML itself, instead of a document file.
    package var html: String?
    /// The URL the document is loaded as (relative links resolve against it).
    package var baseURL: String?
    /// The only folder (a file: URL ending in "/") the page may read files from; nil: none.
    package var allowedFolderURL: String?
    /// Whether the page's own scripts run.
    package var scripts: Bool?
    /// Seconds the step may take.
    package var timeout: Double
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
