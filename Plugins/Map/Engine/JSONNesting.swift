import Foundation
import HandlerSupport

/// How deep a JSON document nests, measured before it is parsed: a parser that recurses (as
/// JSONSerialization and JSONDecoder do) must not be handed ten thousand open brackets, and the
/// job should hear which limit it crossed rather than how a parser failed.
enum JSONNesting {
    /// Throws the limit's error when arrays and objects in `data` nest deeper than `limit`.
    /// Brackets inside strings do not count; the JSON need not be valid (the parser says so).
    static func check(_ data: Data, path: String, limit: Int) throws {
        var depth = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { throw JobLimits.crossed(LimitOptions.maxNesting, path: path, "arrays and objects nested more than \(limit) deep") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }
}
