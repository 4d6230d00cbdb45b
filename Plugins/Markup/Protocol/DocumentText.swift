import Foundation

// swiftprint-markup's script that reads a loaded document's text in document order, with where
// each of some elements starts and ends in it: what the page map needs to find those elements
// in the job's own print (ElementPageMap's text reading) without a second, marked print.

/// A document's rendered text in document order and the places of the elements asked about.
/// Offsets are in UTF-16 code units of `text` (as the page's script counts them).
package struct DocumentText: Codable, Sendable, Equatable {
    /// The text of every text node that is drawn (not under `display: none`, not hidden), in
    /// document order, joined as it is (white space and all).
    package var text: String
    /// For each element, in document order (`querySelectorAll`): where its text starts and
    /// ends; -1 for one that is not drawn.
    package var starts: [Int]
    package var ends: [Int]
    /// Places where the print shows text the document's text nodes do not hold: generated
    /// content (`::before`, `::after`), list markers, form controls, images (alt text), SVG.
    /// What the print holds there is unknown, so it is skipped, not compared.
    package var gaps: [Int]
    /// For each gap, the text it shows when the style says it (`content: "'"`); nil where that
    /// is not known (a counter, a list's marker, an image).
    package var gapTexts: [String?]
    /// For an element with no text of its own: whether the text before it touches it (no
    /// white space and no block's edge between: they share a line), and the text after it.
    package var touchesBefore: [Bool]
    package var touchesAfter: [Bool]
    /// Boxes painted out of the document's order (floats, positioned boxes, those with opacity
    /// or a transform: a print draws their text before or after the text around them), as
    /// [start, end) of their text; the outermost of such boxes only.
    package var displaced: [[Int]]
    /// Whether each element is one whose boxes are wanted (a link: the boxes of its text).
    package var boxed: [Bool]

    package init(text: String, starts: [Int], ends: [Int], gaps: [Int] = [], touchesBefore: [Bool]? = nil, touchesAfter: [Bool]? = nil,
                 boxed: [Bool]? = nil, gapTexts: [String?]? = nil, displaced: [[Int]] = []) {
        self.text = text; self.starts = starts; self.ends = ends; self.gaps = gaps
        self.gapTexts = gapTexts ?? gaps.map { _ in nil }
        self.displaced = displaced
        self.touchesBefore = touchesBefore ?? starts.map { _ in false }
        self.touchesAfter = touchesAfter ?? starts.map { _ in false }
        self.boxed = boxed ?? starts.map { _ in false }
    }

    /// The script that answers a readText request for the elements `selector` matches, those
    /// `boxSelector` matches among them `boxed`.
    package static func script(selector: String, boxSelector: String?) -> String {
        "(\(readTextFunction))(\(scriptLiteral(selector)), \(scriptLiteral(boxSelector ?? "")))"
    }

    /// The function a readText request runs in the page: given the selectors, the document's
    /// text and where each element starts and ends in it (JavaScript, kept as one text).
    private static let readTextFunction = """
        (selector, boxSelector) => {
          // A selector this browser cannot read: no answer here (the marked print says why).
          let elements;
          try { elements = Array.from(document.querySelectorAll(selector)); } catch (e) { return null; }
          const index = new Map();
          elements.forEach((e, i) => index.set(e, i));
          const n = elements.length;
          const starts = new Array(n).fill(-1), ends = new Array(n).fill(-1);
          const touchesBefore = new Array(n).fill(false), touchesAfter = new Array(n).fill(false);
          const parts = [], gaps = [];
          let length = 0;
          // What lies between the last text and here: 0 nothing, 1 white space, 2 a block's edge.
          let sinceText = 2, sinceEnd = 2, waiting = [];
          const touchedAtStart = new Map();
          const edge = (k) => { sinceText = Math.max(sinceText, k); sinceEnd = Math.max(sinceEnd, k); };
          const gapTexts = [];
          const gap = (text) => { gaps.push(length); gapTexts.push(text === undefined ? null : text); edge(2); };
          // A pseudo-element's content: null for none, its text when it is strings alone, else
          // undefined (a counter, a quote, an attribute).
          const strings = /^(?:"(?:[^"\\\\]|\\\\.)*"\\s*)+$/;
          const generated = (e, pseudo) => {
            const c = getComputedStyle(e, pseudo).content;
            if (!c || c === "none" || c === "normal") return null;
            if (!strings.test(c)) return undefined;
            return Array.from(c.matchAll(/"((?:[^"\\\\]|\\\\.)*)"/g), m => m[1].replace(/\\\\(.)/g, "$1")).join("");
          };
          const pseudo = (e, which) => { const t = generated(e, which); if (t !== null && t !== "") gap(t); };
          // Drawn from something else than their text nodes: their insides are skipped.
          const replaced = new Set(["img", "svg", "video", "audio", "canvas", "iframe", "object", "embed", "input", "select",
                                    "textarea", "button", "meter", "progress", "math", "picture"]);
          const unrendered = new Set(["script", "style", "template", "noscript", "head", "title"]);
          // Painted in a phase of their own, so out of the document's order.
          const displaced = [];
          let displacedDepth = 0;
          const paintedApart = (style) => style.cssFloat !== "none" || style.position !== "static" || style.opacity !== "1"
            || style.transform !== "none" || style.filter !== "none";
          const root = document.body || document.documentElement;
          // Depth-first, with the way back kept on the stack: [node, visible] or [element, null].
          const stack = [[root, getComputedStyle(root).visibility === "visible"]];
          while (stack.length) {
            const [node, visible] = stack.pop();
            if (visible === null) {
              const e = node, i = index.get(e), style = getComputedStyle(e);
              pseudo(e, "::after");
              if (e !== root && paintedApart(style)) { displacedDepth -= 1; if (displacedDepth === 0) displaced[displaced.length - 1].push(length); }
              if (i !== undefined) {
                ends[i] = length;
                if (starts[i] === length) { touchesBefore[i] = touchedAtStart.get(i) === true; waiting.push(i); sinceEnd = 0; }
              }
              if (style.display !== "inline" && style.display !== "contents") edge(2);
              continue;
            }
            if (node.nodeType === 3) {
              if (!visible) continue;
              const data = node.data;
              if (/^\\s/.test(data)) edge(1);
              if (/\\S/.test(data)) {
                for (const w of waiting) touchesAfter[w] = sinceEnd === 0;
                waiting = [];
                sinceText = 0;
                parts.push(data);
                length += data.length;
                if (/\\s$/.test(data)) edge(1);
              }
              continue;
            }
            if (node.nodeType !== 1) continue;
            const e = node, name = e.localName;
            if (unrendered.has(name)) continue;
            const style = getComputedStyle(e);
            if (style.display === "none") continue;
            const i = index.get(e);
            if (style.display !== "inline" && style.display !== "contents") edge(2);
            if (i !== undefined) { starts[i] = length; touchedAtStart.set(i, sinceText === 0); }
            const apart = e !== root && !replaced.has(name) && paintedApart(style);
            if (apart) { if (displacedDepth === 0) displaced.push([length]); displacedDepth += 1; }
            if (style.display === "list-item" && style.listStyleType !== "none" && style.listStyleImage === "none") gap();
            pseudo(e, "::before");
            if (replaced.has(name)) {
              gap();
              if (i !== undefined) ends[i] = length;
              continue;
            }
            stack.push([e, null]);
            const shown = style.visibility === "visible";
            for (let c = e.lastChild; c; c = c.previousSibling) stack.push([c, shown]);
          }
          const boxed = elements.map(e => boxSelector !== "" && e.matches(boxSelector));
          return {text: parts.join(""), starts, ends, gaps, gapTexts, displaced, touchesBefore, touchesAfter, boxed};
        }
        """
}
