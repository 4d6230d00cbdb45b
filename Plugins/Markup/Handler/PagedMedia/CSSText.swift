import Foundation

/// CSS text, read as far as paged media needs: comments, blocks, declarations and tokens.
enum CSSText {
    struct Block { var prelude: String; var body: String }
    enum Item { case declarations(String), block(Block) }
    enum Token: Equatable {
        case string(String), identifier(String), function(String, [String]), other(String)
    }

    static func withoutComments(_ css: String) -> String {
        var out = "", chars = Array(css), i = 0, quote: Character?
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                out.append(c)
                if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2; continue }
                if c == q { quote = nil }
                i += 1
            } else if c == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                i += 2
                while i + 1 < chars.count, !(chars[i] == "*" && chars[i + 1] == "/") { i += 1 }
                i += 2
                out.append(" ")
            } else {
                if c == "\"" || c == "'" { quote = c }
                out.append(c)
                i += 1
            }
        }
        return out
    }

    /// The text's blocks and what lies between them, at its top level.
    static func items(in text: String) -> [Item] {
        var items: [Item] = [], chars = Array(text), i = 0, start = 0, quote: Character?
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == "\\" { i += 2; continue }
                if c == q { quote = nil }
                i += 1; continue
            }
            switch c {
            case "\"", "'": quote = c
            case ";":
                items.append(.declarations(String(chars[start..<i]))); start = i + 1
            case "{":
                let prelude = String(chars[start..<i])
                var depth = 1, j = i + 1, q: Character?
                while j < chars.count, depth > 0 {
                    let d = chars[j]
                    if let qq = q { if d == "\\" { j += 1 } else if d == qq { q = nil } }
                    else if d == "\"" || d == "'" { q = d }
                    else if d == "{" { depth += 1 }
                    else if d == "}" { depth -= 1 }
                    j += 1
                }
                // A prelude after declarations in the same run (`color: red; @top-left {`):
                // only its part after the last `;` is the block's.
                items.append(.block(Block(prelude: prelude, body: String(chars[(i + 1)..<max(i + 1, j - 1)]))))
                i = j; start = j; continue
            default: break
            }
            i += 1
        }
        if start < chars.count { items.append(.declarations(String(chars[start...]))) }
        return items
    }

    static func blocks(in text: String) -> [Block] {
        items(in: text).compactMap { if case .block(let b) = $0 { b } else { nil } }
    }

    /// `name: value` pairs, names in lower case, `!important` dropped; later ones win.
    static func declarations(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in split(text, on: ";") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let name = part[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            var value = part[part.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            // `!important` (or `! important`) at the end, outside any string.
            if let bang = value.lastIndex(of: "!"), !isInsideString(value, at: bang),
               value[value.index(after: bang)...].trimmingCharacters(in: .whitespaces).lowercased() == "important" {
                value = value[..<bang].trimmingCharacters(in: .whitespaces)
            }
            if !name.isEmpty { result[name] = value }
        }
        return result
    }

    /// Whether `index` of `text` lies inside a quoted string.
    static func isInsideString(_ text: String, at index: String.Index) -> Bool {
        var quote: Character?, escaped = false
        for c in text[..<index] {
            if let q = quote {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            }
        }
        return quote != nil
    }

    /// Whether a media query list (`print`, `screen, print`, `not print`, `(min-width: 1px)`)
    /// holds for print: one of its queries does, a query with no media type being for all.
    static func mediaQueriesMatchPrint(_ list: String) -> Bool {
        split(list, on: ",").contains { query in
            let words = query.lowercased().split(whereSeparator: { $0.isWhitespace }).filter { !$0.hasPrefix("(") && $0 != "and" && !$0.hasSuffix(")") }
            let negated = words.first == "not"
            let type = words.first { $0 != "not" && $0 != "only" } ?? "all"
            let matches = type == "print" || type == "all"
            return negated ? !matches : matches
        }
    }

    /// `text` split at `separator` outside strings and parentheses.
    static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = [], current = "", depth = 0, quote: Character?, escaped = false
        for c in text {
            if let q = quote {
                current.append(c)
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c; current.append(c)
            case "(": depth += 1; current.append(c)
            case ")": depth -= 1; current.append(c)
            case separator where depth == 0: parts.append(current); current = ""
            default: current.append(c)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(current) }
        return parts
    }

    /// A value's strings (escapes read: `\A` a line break, `\"` a quote), identifiers and
    /// functions with their arguments.
    static func tokens(_ value: String) -> [Token] {
        var tokens: [Token] = [], chars = Array(value), i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if c == "\"" || c == "'" {
                var s = "", j = i + 1
                while j < chars.count, chars[j] != c {
                    if chars[j] == "\\", j + 1 < chars.count {
                        var hex = "", k = j + 1
                        while k < chars.count, hex.count < 6, chars[k].isHexDigit { hex.append(chars[k]); k += 1 }
                        if !hex.isEmpty, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) {
                            s.unicodeScalars.append(scalar)
                            if k < chars.count, chars[k] == " " { k += 1 }
                            j = k; continue
                        }
                        s.append(chars[j + 1]); j += 2; continue
                    }
                    s.append(chars[j]); j += 1
                }
                tokens.append(.string(s)); i = j + 1; continue
            }
            var word = ""
            while i < chars.count, !chars[i].isWhitespace, chars[i] != "(", chars[i] != "\"", chars[i] != "'" { word.append(chars[i]); i += 1 }
            if i < chars.count, chars[i] == "(" {
                var depth = 1, j = i + 1, inner = ""
                while j < chars.count, depth > 0 {
                    if chars[j] == "(" { depth += 1 } else if chars[j] == ")" { depth -= 1; if depth == 0 { break } }
                    inner.append(chars[j]); j += 1
                }
                let args = split(inner, on: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                tokens.append(.function(word.lowercased(), args)); i = j + 1; continue
            }
            if !word.isEmpty { tokens.append(word.first!.isLetter || word.first! == "-" ? .identifier(word) : .other(word)) }
            else { i += 1 }
        }
        return tokens
    }
}
