import Foundation

// swiftprint-markup's scripts that mark a document's elements for the page map (and take the
// marks away), and the tokens the marks print.

/// The marks a `print` with `markSelector` draws: what they say, and how they are drawn so
/// that they change nothing around them. Each is a ::before box taken out of the flow
/// (`position: absolute`, at its static place: where the element's content starts, 2 px down
/// so that it falls inside the element's first line rather than on the page before a break),
/// 1 px text drawn at 1 % opacity: poppler reads it, no one sees it, no line moves. An element
/// whose ::before is in use gets an element of the same style as its first child instead.
package enum ElementPageMarks {
    /// A print's marks are `<prefix><i>Q`, the prefix new for each print (`newPrefix()`), so
    /// that no text of the document's own reads as a mark. A mark lower down (`<prefix><i>V<d>Q`,
    /// d from 1 to 3) belongs to an element inside d marked ones: those may start at the same
    /// place, and marks drawn over each other are read as one (poppler drops a character drawn
    /// again where it already is), so each nesting level is drawn 2 px lower.
    package static func token(_ index: Int, prefix: String) -> String { "\(prefix)\(index)Q" }
    package static func newPrefix() -> String {
        "SWPM" + String((0..<8).map { _ in "BCDFGHJKLMNPRSTVWXZ".randomElement()! }) + "N"
    }
    /// The marks of a print whose prefix is `prefix` (letters only), with their index and level.
    package static func tokenPattern(prefix: String) -> Regex<AnyRegexOutput> {
        try! Regex(prefix + "([0-9]+)(?:V([0-9]))?Q")
    }
    /// How many levels of marks there are, each `levelStep` px below the one above.
    package static let levels = 4
    package static let levelStep = 2.0
    /// The end marks of such a print: `E` where the element ends, `F` on its last line when it
    /// ends at that line's end (a flex row's), with their index.
    package static func endTokenPattern(prefix: String) -> Regex<AnyRegexOutput> {
        try! Regex(prefix + "([EF])([0-9]+)Q")
    }

    static let boxStyle = ["position:absolute", "margin:2px 0 0 0", "padding:0", "border:0", "top:auto", "left:auto",
                           "right:auto", "bottom:auto", "float:none", "display:inline", "width:auto", "height:auto",
                           "font:1px/1px monospace", "color:rgba(0,0,0,0.01)", "background:none", "white-space:nowrap",
                           "visibility:visible", "opacity:1", "transform:none", "text-indent:0", "letter-spacing:0",
                           "word-spacing:0", "text-transform:none"].map { $0 + " !important" }.joined(separator: ";")

    /// An `F` end mark's style: at the start of its element's last line, 3 px above its bottom.
    static let lastLineBoxStyle = boxStyle.replacingOccurrences(of: "margin:2px 0 0 0", with: "margin:0 0 3px 0")
        .replacingOccurrences(of: "left:auto", with: "left:0").replacingOccurrences(of: "bottom:auto", with: "bottom:0")

    /// Marks the elements `selector` matches; answers how many.
    package static func markScript(selector: String, prefix: String, endSelector: String? = nil) -> String {
        let quoted = scriptLiteral(selector), endQuoted = scriptLiteral(endSelector ?? "")
        let prefix = prefix.filter { $0.isLetter && $0.isASCII }
        return """
            (() => {
              const style = document.createElement("style");
              style.id = "swiftprint-page-marks";
              style.textContent = '[data-swiftprint-mark]::before { content: "\(prefix)" attr(data-swiftprint-mark) "Q" !important; \(boxStyle) } '
                + '[data-swiftprint-mark-end]::after { content: "\(prefix)E" attr(data-swiftprint-mark-end) "Q" !important; \(boxStyle) } '
                + [1, 2, 3].map(d => '[data-swiftprint-mark-level="' + d + '"]::before { margin-top: ' + (\(levelStep) * (d + 1)) + 'px !important }').join(" ");
              const endSelector = \(endQuoted);
              (document.head || document.documentElement).appendChild(style);
              const elements = Array.from(document.querySelectorAll(\(quoted)));
              // Replaced and empty elements (an image, a rule) show no ::before: their mark goes
              // just before them instead.
              const replaced = ["IMG", "SVG", "VIDEO", "CANVAS", "IFRAME", "OBJECT", "EMBED", "INPUT", "SELECT", "TEXTAREA", "BR", "HR"];
              // How many marked elements hold each one: its marks' level (module \(levels)).
              const marked = new Set(elements);
              const level = (element) => {
                let d = 0;
                for (let e = element.parentElement; e; e = e.parentElement) if (marked.has(e)) d += 1;
                return d % \(levels);
              };
              elements.forEach((element, i) => {
                const outside = replaced.includes(element.tagName.toUpperCase());
                const before = getComputedStyle(element, "::before").content;
                const d = level(element), id = d > 0 ? i + "V" + d : String(i);
                if (!outside && (before === "none" || before === "normal")) {
                  element.setAttribute("data-swiftprint-mark", id);
                  if (d > 0) element.setAttribute("data-swiftprint-mark-level", String(d));
                  return;
                }
                const mark = document.createElement("swiftprint-page-mark");
                mark.setAttribute("style", \(scriptLiteral(boxStyle)).replace("margin:2px 0 0 0", "margin:" + (\(levelStep) * (d + 1)) + "px 0 0 0"));
                mark.textContent = "\(prefix)" + id + "Q";
                if (outside) element.parentNode?.insertBefore(mark, element); else element.insertBefore(mark, element.firstChild);
              });
              elements.forEach((element, i) => {
                if (!endSelector || !element.matches(endSelector)) return;
                const after = getComputedStyle(element, "::after").content;
                if (after === "none" || after === "normal") { element.setAttribute("data-swiftprint-mark-end", String(i)); return; }
                const mark = document.createElement("swiftprint-page-mark");
                // In the flex row a leader makes, which fills its last line, it would sit at
                // the row's start: it goes to the start of the last line and says so.
                const flex = element.getAttributeNames().some(n => n.startsWith("data-swiftprint-leader-"));
                mark.setAttribute("style", flex ? \(scriptLiteral(lastLineBoxStyle)) : \(scriptLiteral(boxStyle)));
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
          document.querySelectorAll("[data-swiftprint-mark-level]").forEach(e => e.removeAttribute("data-swiftprint-mark-level"));
          document.querySelectorAll("[data-swiftprint-mark-end]").forEach(e => e.removeAttribute("data-swiftprint-mark-end"));
          document.querySelectorAll("swiftprint-page-mark").forEach(e => e.remove());
          return true;
        })()
        """
}
