import Foundation

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

    /// An element a `describeElements` request asked about.
    package struct Element: Codable, Sendable {
        /// The indices (into `ruleSelectors`) of the selectors it matches.
        package var rules: [Int]
        /// Its text, white space collapsed.
        package var text: String
        package var attributes: [String: String]
        /// Whether it is rendered at all (not `display: none`, itself or an ancestor), as the
        /// screen's style says.
        package var shown: Bool?
    }

    package var title: String
    package var rules: [Rule]
    /// The style sheets and images the page names that were not loaded (blocked or missing), as URLs.
    package var notLoaded: [String]?
    /// Style sheets whose rules the script could not read.
    package var unreadableSheets: [String]
    /// The text of every style sheet: the page's `<style>` elements, then the linked sheets read
    /// for it (WebKit's CSSOM drops margin boxes and `string-set`, so they are read from this).
    package var styleTexts: [String]?
    /// describeElements: the elements, in document order, and the one selector that finds them
    /// all in that order (the valid rule selectors joined).
    package var elements: [Element]?
    package var elementsSelector: String?
    /// readText: the document's text and its elements' places in it.
    package var documentText: DocumentText?

    /// A readText answer.
    package init(documentText: DocumentText) {
        title = ""; rules = []; unreadableSheets = []
        self.documentText = documentText
    }

    /// The elements that must start on a given side of the sheet carry this attribute while
    /// the document is loaded: `left`, `right`, `recto` or `verso`, from their own
    /// `break-before` or the `break-after` of the element before them. The describe script
    /// sets it; `sideSelector` finds them.
    package static let sideAttribute = "data-swiftprint-side"
    package static let sideSelector = "[data-swiftprint-side]"
    /// An element that resets the page counter (`counter-reset: page N`): N.
    package static let pageResetAttribute = "data-swiftprint-page-reset"
    package static let pageResetSelector = "[data-swiftprint-page-reset]"
    /// The first element of each run of elements on one named page (`page: wide`): the name,
    /// empty for unnamed pages. Each but the document's first gets a forced page break, as
    /// css-page-3 wants between pages of different names and WebKit does not do.
    package static let pageNameAttribute = "data-swiftprint-page-name"
    package static let pageNameSelector = "[data-swiftprint-page-name]"
    /// The elements a `target-counter()` link points to.
    package static let targetAttribute = "data-swiftprint-target"
    package static let targetSelector = "[data-swiftprint-target]"

    /// The script that answers a describeElements request (it first marks the elements that
    /// must start on a side).
    package static func describeScript(ruleSelectors: [String], attributeNames: [String], pageNames: [[String]] = [],
                                       targetLinks: [[String]] = [], sideRules: [[String]] = [], resetRules: [[String]] = []) -> String {
        let selectors = scriptLiteral(ruleSelectors), attributes = scriptLiteral(attributeNames), nameRules = scriptLiteral(pageNames)
        let links = scriptLiteral(targetLinks), sideRuleList = scriptLiteral(sideRules), resetRuleList = scriptLiteral(resetRules)
        return """
            (() => {
              const all = \(selectors), names = \(attributes);
              document.querySelectorAll("[\(targetAttribute)]").forEach(e => e.removeAttribute("\(targetAttribute)"));
              for (const [s, a] of \(links)) {
                let sources = [];
                try { sources = document.querySelectorAll(s); } catch (e) { continue; }
                for (const e of sources) {
                  const value = e.getAttribute(a) || "";
                  if (!value.startsWith("#")) continue;
                  let id = value.slice(1);
                  try { id = decodeURIComponent(id); } catch (x) {}
                  // As a browser goes to a fragment: the element of that id, else an `a` of that name.
                  (document.getElementById(id) || Array.from(document.getElementsByName(id)).find(n => n.localName === "a"))
                    ?.setAttribute("\(targetAttribute)", "");
                }
              }
              const rendered = (e) => e.checkVisibility ? e.checkVisibility() : getComputedStyle(e).display !== "none";
              // Rules whose selector this browser cannot read are left out.
              const readable = (s) => { try { document.querySelector(s); return true; } catch (e) { return false; } };
              // Sides and page resets from the element's own style attribute, else from the print
              // rules that match it (the last wins); WebKit's computed style is the screen's.
              const sideRules = \(sideRuleList).filter(([s]) => readable(s)), resetRules = \(resetRuleList).filter(([s]) => readable(s));
              const sides = ["left", "right", "recto", "verso"];
              const ruled = (e, rules, at) => { let v = null; for (const r of rules) if (r[at] && e.matches(r[0])) v = r[at]; return v; };
              let pending = null;
              for (const e of document.body ? document.body.querySelectorAll("*") : []) {
                const own = e.style, before = sides.includes(own.breakBefore) ? own.breakBefore : ruled(e, sideRules, 1);
                const after = sides.includes(own.breakAfter) ? own.breakAfter : ruled(e, sideRules, 2);
                let side = before;
                if (pending && !pending.element.contains(e)) { side = side || pending.side; pending = null; }
                if (side && rendered(e)) e.setAttribute("\(sideAttribute)", side); else e.removeAttribute("\(sideAttribute)");
                if (after) pending = {element: e, side: after};
              }
              const nameRules = \(nameRules).filter(([s]) => readable(s));
              const effective = new Map();
              const nameOf = (e) => { let own = null; for (const [s, name] of nameRules) if (e.matches(s)) own = name; return own; };
              // The root's and the body's page name (css-page-3: `auto` takes the parent's).
              let inherited = "";
              for (const e of [document.documentElement, document.body]) {
                const own = e ? nameOf(e) : null;
                if (own !== null && own !== "auto") inherited = own;
                if (e) effective.set(e, inherited);
              }
              const forced = ["page", "left", "right", "recto", "verso", "always"];
              let current = "", first = true;
              for (const e of document.body ? document.body.querySelectorAll("*") : []) {
                const inline = /(?:^|\\s)page(?:\\s+(-?\\d+))?(?:\\s|$)/.exec(e.style.counterReset || "");
                const reset = inline ? (inline[1] || "0") : ruled(e, resetRules, 1);
                if (reset !== null && rendered(e)) e.setAttribute("\(pageResetAttribute)", reset); else e.removeAttribute("\(pageResetAttribute)");
                e.removeAttribute("\(pageNameAttribute)");
                if (!rendered(e)) continue;
                const own = nameOf(e);
                const name = own !== null && own !== "auto" ? own : (effective.get(e.parentElement) ?? "");
                effective.set(e, name);
                if (name !== current) {
                  e.setAttribute("\(pageNameAttribute)", name);
                  // A break of its own (a side one above all) stays as it is.
                  if (!first && !forced.includes(getComputedStyle(e).breakBefore)) e.style.setProperty("break-before", "page", "important");
                  current = name;
                }
                first = false;
              }
              const valid = all.map((s, i) => [s, i]).filter(([s]) => readable(s));
              const union = valid.map(([s]) => s).join(", ");
              const found = union ? Array.from(document.querySelectorAll(union)) : [];
              const elements = found.map(e => ({
                rules: valid.filter(([s]) => e.matches(s)).map(([, i]) => i),
                text: (e.innerText ?? e.textContent ?? "").replace(/\\s+/g, " ").trim(),
                attributes: Object.fromEntries(names.map(n => [n, e.getAttribute(n) || ""])),
                shown: rendered(e)
              }));
              return {title: "", rules: [], unreadableSheets: [], elements, elementsSelector: union};
            })()
            """
    }

    /// The script that makes this report: evaluates to an object of exactly these keys.
    /// `extraSheets` are the texts of style sheets the page links but may not read itself
    /// (file: URLs are each an origin of their own), read by the renderer from the document's
    /// folder and parsed here as constructed sheets, after the page's own.
    package static func script(extraSheets: [String] = []) -> String {
        let extra = scriptLiteral(extraSheets)
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
              const forPrint = (media) => !media || /(^|[ ,])(print|all)([ ,]|$)/i.test(media) && !/^\\s*not\\s/i.test(media);
              const styleTexts = Array.from(document.querySelectorAll("style")).filter(s => forPrint(s.media)).map(s => s.textContent || "").concat(\(extra));
              const notLoaded = Array.from(new Set(
                Array.from(document.querySelectorAll('link[rel~="stylesheet" i][href]')).filter(l => !l.sheet && !l.disabled).map(l => l.href)
                  .concat(Array.from(document.images).filter(i => i.complete && i.naturalWidth === 0 && (i.currentSrc || i.src))
                    .map(i => i.currentSrc || i.src))));
              return {title: document.title || "", rules, unreadableSheets: unreadable, styleTexts, notLoaded};
            })()
            """
    }
}

/// `value` written as a JavaScript literal (JSON is one), for the page scripts swiftprint runs.
func scriptLiteral<T: Encodable>(_ value: T) -> String {
    (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
}
