import Foundation

// swiftprint-markup's scripts that mark a document's elements for the page map (and take the
// marks away), and the tokens the marks print.

/// The marks a `print` with `markSelector` draws: what they say, and how they are drawn so
/// that they change nothing around them. Each is a ::before box taken out of the flow
/// (`position: absolute`, at its static place: where the element's content starts, a few px
/// down so that it falls inside the element's first line rather than on the page before a
/// break), 1 px text drawn at 1 % opacity: poppler reads it, no one sees it, no line moves. An
/// element whose ::before is in use gets an element of the same style as its first child instead.
///
/// Marks must not touch each other: poppler reads two marks drawn on one line across each
/// other as one jumble (CUPS's man pages end with a list of links, each link's end mark beside
/// the next one's start mark), and drops a character drawn again where one already is. So the
/// tokens are short (a 3-letter prefix, about 3 pt wide); an end mark ends where its element
/// does (it is drawn leftwards from there); and start marks have rows of their own below the
/// top of the line they mark: those of each nesting level (elements that start together), of
/// even and odd elements apart (neighbours on a line).
package enum ElementPageMarks {
    /// A print's marks are `<prefix><i>Q`, the prefix new for each print (`newPrefix()`), so
    /// that no text of the document's own reads as a mark. A mark on another row than the
    /// first (`<prefix><i>V<r>Q`, r from 1 to 5) is drawn lower (`offset(row:)`).
    package static func token(_ index: Int, prefix: String) -> String { "\(prefix)\(index)Q" }
    package static func newPrefix() -> String {
        String((0..<3).map { _ in "BCDFGHJKLMNPRSTVWXZ".randomElement()! })
    }
    /// The marks of a print whose prefix is `prefix` (letters only), with their index and row.
    package static func tokenPattern(prefix: String) -> Regex<AnyRegexOutput> {
        try! Regex(prefix + "([0-9]+)(?:V([0-9]))?Q")
    }
    /// How many levels of nesting have rows of their own (deeper ones take them again).
    package static let levels = 3
    /// The px between the rows of two levels: WebKit may put the start of an element nested in
    /// another a px off the outer one's (an inline in a block), so levels are 3 px apart, and
    /// even and odd elements of a level 1 px.
    package static let levelStep = 3.0
    /// How far below the top of its line a start mark's box is, in px: row 0 is 2 px down; an
    /// element inside d marked ones is on row 2 d (d modulo `levels`), one row lower when its
    /// index is odd. Deeper rows would fall out of the short lines of small print.
    package static func offset(row: Int) -> Double { 2 + levelStep * Double(row / 2) + Double(row % 2) }
    /// The end marks of such a print: `E` where the element ends, `F` on its last line when it
    /// ends at that line's end (a flex row's), with their index.
    package static func endTokenPattern(prefix: String) -> Regex<AnyRegexOutput> {
        try! Regex(prefix + "([EF])([0-9]+)Q")
    }
    /// An `E` mark's style: its box ends where the element's content does, so that it never
    /// reaches the start mark of what follows on the line. (It keeps row 0's margin: higher, on
    /// a page's first line, poppler lost it above the page.)
    static let endBoxStyle = boxStyle.replacingOccurrences(of: "transform:none", with: "transform:translateX(-100%)")

    static let boxStyle = ["position:absolute", "margin:\(offset(row: 0))px 0 0 0", "padding:0", "border:0", "top:auto", "left:auto",
                           "right:auto", "bottom:auto", "float:none", "display:inline", "width:auto", "height:auto",
                           "font:1px/1px monospace", "color:rgba(0,0,0,0.01)", "background:none", "white-space:nowrap",
                           "visibility:visible", "opacity:1", "transform:none", "text-indent:0", "letter-spacing:0",
                           "word-spacing:0", "text-transform:none"].map { $0 + " !important" }.joined(separator: ";")

    /// An `F` end mark's style: at the start of its element's last line, 3 px above its bottom.
    static let lastLineBoxStyle = boxStyle.replacingOccurrences(of: "margin:\(offset(row: 0))px 0 0 0", with: "margin:0 0 3px 0")
        .replacingOccurrences(of: "left:auto", with: "left:0").replacingOccurrences(of: "bottom:auto", with: "bottom:0")

    /// Marks the elements `selector` matches; answers how many.
    package static func markScript(selector: String, prefix: String, endSelector: String? = nil) -> String {
        let quoted = scriptLiteral(selector), endQuoted = scriptLiteral(endSelector ?? "")
        let prefix = prefix.filter { $0.isLetter && $0.isASCII }
        return """
            (() => {
              const rows = [1, 2, 3, 4, 5], offset = (r) => 2 + \(levelStep) * Math.floor(r / 2) + r % 2;
              const style = document.createElement("style");
              style.id = "swiftprint-page-marks";
              style.textContent = '[data-swiftprint-mark]::before { content: "\(prefix)" attr(data-swiftprint-mark) "Q" !important; \(boxStyle) } '
                + '[data-swiftprint-mark-end]::after { content: "\(prefix)E" attr(data-swiftprint-mark-end) "Q" !important; \(endBoxStyle) } '
                + rows.map(r => '[data-swiftprint-mark-row="' + r + '"]::before { margin-top: ' + offset(r) + 'px !important }').join(" ");
              const endSelector = \(endQuoted);
              (document.head || document.documentElement).appendChild(style);
              const elements = Array.from(document.querySelectorAll(\(quoted)));
              // Replaced and empty elements (an image, a rule) show no ::before: their mark goes
              // just before them instead.
              const replaced = ["IMG", "SVG", "VIDEO", "CANVAS", "IFRAME", "OBJECT", "EMBED", "INPUT", "SELECT", "TEXTAREA", "BR", "HR"];
              // How many marked elements hold each one: its marks' level.
              const marked = new Set(elements);
              const level = (element) => {
                let d = 0;
                for (let e = element.parentElement; e; e = e.parentElement) if (marked.has(e)) d += 1;
                return d;
              };
              elements.forEach((element, i) => {
                const outside = replaced.includes(element.tagName.toUpperCase());
                const before = getComputedStyle(element, "::before").content;
                const r = 2 * (level(element) % \(levels)) + i % 2, id = r > 0 ? i + "V" + r : String(i);
                if (!outside && (before === "none" || before === "normal")) {
                  element.setAttribute("data-swiftprint-mark", id);
                  if (r > 0) element.setAttribute("data-swiftprint-mark-row", String(r));
                  return;
                }
                const mark = document.createElement("swiftprint-page-mark");
                mark.setAttribute("style", \(scriptLiteral(boxStyle)).replace("margin:\(offset(row: 0))px 0 0 0", "margin:" + offset(r) + "px 0 0 0"));
                mark.textContent = "\(prefix)" + id + "Q";
                if (outside) element.parentNode?.insertBefore(mark, element); else element.insertBefore(mark, element.firstChild);
              });
              elements.forEach((element, i) => {
                // An element with no text has no boxes to find between its marks, and its end
                // mark would lie on others' (the empty links the parser makes of one left open).
                if (!endSelector || !element.matches(endSelector) || !/\\S/.test(element.textContent)) return;
                const after = getComputedStyle(element, "::after").content;
                if (after === "none" || after === "normal") { element.setAttribute("data-swiftprint-mark-end", String(i)); return; }
                const mark = document.createElement("swiftprint-page-mark");
                // In the flex row a leader makes, which fills its last line, it would sit at
                // the row's start: it goes to the start of the last line and says so.
                const flex = element.getAttributeNames().some(n => n.startsWith("data-swiftprint-leader-"));
                mark.setAttribute("style", flex ? \(scriptLiteral(lastLineBoxStyle))
                  : \(scriptLiteral(endBoxStyle)));
                mark.textContent = "\(prefix)" + (flex ? "F" : "E") + i + "Q";
                element.appendChild(mark);
              });
              return elements.length;
            })()
            """
    }

    /// Takes every mark away again.
    package static let unmarkScript = """
        (() => {
          document.getElementById("swiftprint-page-marks")?.remove();
          document.querySelectorAll("[data-swiftprint-mark]").forEach(e => e.removeAttribute("data-swiftprint-mark"));
          document.querySelectorAll("[data-swiftprint-mark-row]").forEach(e => e.removeAttribute("data-swiftprint-mark-row"));
          document.querySelectorAll("[data-swiftprint-mark-end]").forEach(e => e.removeAttribute("data-swiftprint-mark-end"));
          document.querySelectorAll("swiftprint-page-mark").forEach(e => e.remove());
          return true;
        })()
        """
}
