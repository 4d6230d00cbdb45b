import Foundation

/// What Markdown is changed before Ink (0.6) reads it, so that Ink always returns, in time
/// linear in the document. Both were found by the markdown fuzz target (FUZZING.md); each
/// change prints the same characters, written as an HTML character reference that Ink passes
/// through:
/// - `<p` (`<P`, `<pre`, `<param` …) with no `>` anywhere after it: Ink's paragraph reader stops
///   before `<p` and its HTML reader needs the `>`, so neither moves on and Ink never returns.
///   Each such `<` becomes `&lt;`, in code too (where Ink then shows `&lt;`: what Ink reads
///   as code depends on what came before, and a guess wrong the other way never returns).
/// - `[` nested more than two deep (`[[[[…`, `![![![…`): Ink tries every bracket as a link's
///   start again for each one around it, in time exponential in the depth (18 brackets took
///   a second, 32 more than a minute). A `[` opened inside two open ones becomes `&#91;`; no
///   link of a real document nests deeper. Brackets in code blocks are left as written; in
///   inline code they count (Ink's reading of a code span depends on escapes and line breaks
///   before it, and a span it reads as text takes minutes), and such a `[` shows as `&#91;`.
///   The rest of a fence's own line counts too (Ink may read it as text: a block closed by
///   "```[[[~~[[[[[Z[[[…" took it 37 s); there such a `[` may show as `&#91;`.
/// - A document whose last line is white space after a list (`- a`, then `  `): Ink's list
///   reader reads past the end and stops the process. An empty HTML comment goes after every
///   document (but one that ends in a code block), so that no reader of Ink's meets the end in
///   white space.
/// - A document that opens with `---` and has no later line starting with `-`: Ink reads it as
///   front matter that never closes, and stops the process on reaching the end (`---`, then a
///   line `a`, was enough). An empty HTML comment goes before it, so Ink reads no front matter
///   and prints the `---` as the rule it is.
enum InkGuard {
    static func prepared(_ markdown: String) -> String {
        let (escaped, endsInCode) = escapingTagsAndBrackets(markdown)
        var prepared = opensUnclosedFrontMatter(escaped) ? "<!-- -->\n" + escaped : escaped
        // Not in a code block that runs to the end, where it would show.
        if !endsInCode { prepared += "\n\n<!-- -->\n" }
        return prepared
    }

    /// Whether Ink would read front matter (the document's first text is `-`) that no later line
    /// starting with `-` closes.
    static func opensUnclosedFrontMatter(_ markdown: String) -> Bool {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }),
              lines[first].drop(while: \.isWhitespace).hasPrefix("-") else { return false }
        return !lines[(first + 1)...].contains { $0.drop(while: \.isWhitespace).hasPrefix("-") }
    }

    /// The document with those `<p` and `[` escaped, and whether it ends inside a code block.
    private static func escapingTagsAndBrackets(_ markdown: String) -> (String, Bool) {
        let bytes = Array(markdown.utf8)
        let lt = UInt8(ascii: "<"), open = UInt8(ascii: "["), close = UInt8(ascii: "]"), tick = UInt8(ascii: "`")
        let newline = UInt8(ascii: "\n")
        let afterLastClose = (bytes.lastIndex(of: UInt8(ascii: ">")) ?? -1) + 1
        func isUnclosedTag(_ i: Int) -> Bool {
            i >= afterLastClose && bytes[i] == lt && i + 1 < bytes.count && bytes[i + 1] | 0x20 == UInt8(ascii: "p")
        }
        // Every such `<p`, code or not: whether Ink reads a line as code depends on what came
        // before (an HTML block swallows a fence), and a `<p` it reads as text never ends.
        var replacements: [Int: String] = [:]
        for i in afterLastClose ..< bytes.count where isUnclosedTag(i) { replacements[i] = "&lt;" }
        // Brackets count outside code blocks. The backticks of the open code block: Ink's opens
        // on a line that starts with three or more, and closes on one that starts with exactly
        // as many, or at the end. Only a fence after a blank line (or first) is taken for one:
        // after text, Ink may read the backticks as more of it (a block quote goes on), and its
        // brackets as links.
        var fence: Int?
        var depth = 0
        var lineStart = 0
        var afterBlank = true
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: newline) ?? bytes.count
            let line = bytes[lineStart ..< lineEnd]
            let ticks = line.prefix { $0 == tick }.count
            let blank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }
            defer { afterBlank = blank; lineStart = lineEnd + 1 }
            func countBrackets(from start: Int) {
                for i in start ..< lineEnd {
                    if bytes[i] == open {
                        if depth >= 2 { replacements[i] = "&#91;" } else { depth += 1 }
                    } else if bytes[i] == close, depth > 0 {
                        depth -= 1
                    }
                }
            }
            if let opened = fence {
                // What follows the backticks of a fence's line may be read as text ("```[[[…"
                // closing a block took Ink minutes): its brackets count.
                if ticks == opened { fence = nil; depth = 0; countBrackets(from: lineStart + ticks) }
            } else if ticks >= 3, afterBlank {
                fence = ticks
                depth = 0
                countBrackets(from: lineStart + ticks)
            } else if blank {
                depth = 0  // a blank line ends the paragraph, and any link in it
            } else {
                countBrackets(from: lineStart)
            }
        }
        guard !replacements.isEmpty else { return (markdown, fence != nil) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + replacements.count * 4)
        for (i, byte) in bytes.enumerated() {
            if let text = replacements[i] { out += Array(text.utf8) } else { out.append(byte) }
        }
        return (String(decoding: out, as: UTF8.self), fence != nil)
    }
}
