import Foundation

// swiftprint-markup's part of the helper protocol (PrintHelpers): what the markup handler asks
// (a request's task) and what the renderer reports (a reply's answer).

/// swiftprint-markup: load a document (`input`, or `html`) and report its @page rules, or print
/// the loaded one to `output`.
package struct MarkupTask: Codable, Sendable {
    package enum Operation: String, Codable, Sendable {
        /// Load a document and report its title and @page rules (answer: `PageStyleReport`).
        case load
        /// Print the loaded document to a PDF; a print request names its document too, which the
        /// renderer loads again when another was loaded since.
        case print
        /// Describe the elements `ruleSelectors` match (answer: `PageStyleReport.elements`),
        /// for `string-set`: which rules match each, its text and `attributeNames`' values.
        case describeElements
        /// Give elements generated content of swiftprint's (`generated`): the page numbers of
        /// `target-counter()`, which WebKit does not know.
        case setGeneratedContent
        /// Read the loaded document's text and where the elements `elementSelector` matches
        /// start and end in it (answer: `PageStyleReport.documentText`).
        case readText
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
    /// Whose document this is (a formatter's own name): two formatters of one file, in jobs of
    /// one process that take turns, keep what each changed in it apart.
    package var owner: String?
    /// Seconds the step may take.
    package var timeout: Double
    /// print: page size in points (WebKit prints edge to edge; margins are the paginator's).
    package var pageWidth: Double?
    package var pageHeight: Double?
    /// print: blank space above the content on the first page only (UIKit's contentInsets.top).
    package var firstPageTopInset: Double?
    /// print: a CSS selector whose elements are marked for this print only, each with the
    /// token `ElementPageMarks.token(i, prefix: markPrefix)` (i in document order) drawn where the element starts,
    /// so that the PDF tells on which page each landed (ElementPageMap reads them).
    package var markSelector: String?
    package var markPrefix: String?
    /// print: of the marked elements, those that also get a mark where they end (`<prefix>E<i>Q`,
    /// as their `::after`): links, whose boxes are the characters between their two marks.
    package var markEndSelector: String?
    /// readText: the elements whose places in the text are asked, and those of them whose
    /// text's boxes are wanted (links).
    package var elementSelector: String?
    package var boxSelector: String?
    /// describeElements: the selectors of the rules that set strings, and the attributes they read.
    package var ruleSelectors: [String]?
    package var attributeNames: [String]?
    /// describeElements: the rules that put elements on named pages, as [selector, name].
    package var pageNames: [[String]]?
    /// describeElements: links whose targets are to be marked, as [selector, attribute].
    package var targetLinks: [[String]]?
    /// describeElements: the print rules that start elements on a side, as [selector, before,
    /// after] ("" for none), and those that reset the page number, as [selector, N].
    package var sideRules: [[String]]?
    package var resetRules: [[String]]?
    /// setGeneratedContent: what each rule's elements show, in document order.
    package var generated: [GeneratedContent]?

    package init(operation: Operation, timeout: Double) {
        self.operation = operation
        self.timeout = timeout
    }
}
