import Foundation

// swiftprint-markup's script that puts swiftprint's own generated content into a document:
// the page numbers of target-counter() and the leaders drawn before them.

/// Content swiftprint generates for the elements a selector matches (in document order), as
/// their `::before` or `::after`.
package struct GeneratedContent: Codable, Sendable, Equatable {
    package var selector: String
    package var pseudo: String
    package var texts: [String]
    /// A leader that opens the content (`::after` only): the text it repeats. `texts` are then
    /// what follows it, set at the end of the element's last line with the leader filling the
    /// space before them.
    package var leader: String?
    package init(selector: String, pseudo: String, texts: [String], leader: String? = nil) {
        self.selector = selector; self.pseudo = pseudo; self.texts = texts; self.leader = leader
    }

    /// How a leader is drawn, WebKit having none: the element becomes a flex row (its own
    /// content, then the `::after`), and the `::after` takes the rest of the line. Its text is
    /// the leader repeated past any line's width, then what follows it, written backwards and
    /// set right to left with the bidirectional order overridden: it reads forwards, ends at the
    /// line's end, and the repeats that do not fit are cut off on the left. Only an element of
    /// text alone (no child elements, no `::before`), laid out inline or as a block, is changed;
    /// any other shows a space for its leader.
    static func leaderText(_ text: String, fill: String) -> String {
        String((String(repeating: fill, count: max(1, 800 / max(1, fill.count))) + text).reversed())
    }

    /// The script that sets `contents` (replacing what it set before).
    package static func script(_ contents: [GeneratedContent]) -> String {
        struct Scripted: Encodable {
            var selector: String, pseudo: String, texts: [String], drawn: [String]?, minimumWidth: Double
        }
        let scripted = contents.map { g in
            Scripted(selector: g.selector, pseudo: g.pseudo, texts: g.leader == nil ? g.texts : g.texts.map { " " + $0 },
                     drawn: g.leader.map { fill in g.texts.map { leaderText($0, fill: fill) } },
                     // Room for what follows the leader and a little of it, in em.
                     minimumWidth: 0.6 * Double(g.texts.map(\.count).max() ?? 0) + 1.2)
        }
        let json = scriptLiteral(scripted)
        return """
            (() => {
              document.getElementById("swiftprint-generated")?.remove();
              const style = document.createElement("style");
              style.id = "swiftprint-generated";
              const rules = [];
              \(json).forEach((g, k) => {
                const name = "data-swiftprint-generated-" + k, leader = "data-swiftprint-leader-" + k;
                let elements = [];
                try { elements = Array.from(document.querySelectorAll(g.selector)); } catch (e) { return; }
                elements.forEach((e, i) => {
                  if (i >= g.texts.length) return;
                  e.removeAttribute(leader);
                  const display = getComputedStyle(e).display, before = getComputedStyle(e, "::before").content;
                  // A flex row makes each child and each run of text an item of its own, and
                  // drops the spaces between them: only an element of text alone takes one.
                  const textAlone = Array.from(e.childNodes).every(n => n.nodeType !== Node.ELEMENT_NODE)
                    && (before === "none" || before === "normal");
                  if (g.drawn && textAlone && (display === "inline" || display === "block" || display === "inline-block" || display === "flex")) {
                    e.setAttribute(leader, getComputedStyle(e).position === "static" ? "relative" : "");
                    e.setAttribute(name, g.drawn[i]);
                  } else {
                    e.setAttribute(name, g.texts[i]);
                  }
                });
                rules.push(g.selector + "::" + g.pseudo + " { content: attr(" + name + ") }");
                if (g.drawn) {
                  rules.push("[" + leader + "] { display: flex !important; align-items: last baseline }");
                  rules.push("[" + leader + "=relative] { position: relative !important }");
                  rules.push("[" + leader + "]::after { flex: 1 0 0; min-width: " + g.minimumWidth + "em; overflow: hidden; white-space: pre;"
                    + " direction: rtl; unicode-bidi: bidi-override; text-align: start; text-indent: 0 }");
                }
              });
              style.textContent = rules.join("\\n");
              (document.head || document.documentElement).appendChild(style);
              return true;
            })()
            """
    }
}
