import SwiftPrint

/// The closest of a set of names to one a user mistyped (`conver` → `convert`, `--meda` →
/// `--media`), by edit distance: a suggestion is made only when it is near enough to be the
/// name meant, so a word that resembles nothing gets none.
enum Suggestions {
    static func closest(to typed: String, among names: some Sequence<String>) -> String? {
        let typed = typed.lowercased()
        let best = names.map { (name: $0, distance: distance(typed, $0.lowercased())) }
            .min { $0.distance < $1.distance || ($0.distance == $1.distance && $0.name < $1.name) }
        guard let best, best.distance <= max(1, min(3, typed.count / 3)) else { return nil }
        return best.name
    }

    /// Levenshtein distance, one row at a time.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// ` (did you mean 'convert'?)`, or nothing.
    static func didYouMean(_ typed: String, among names: some Sequence<String>, written prefix: String = "") -> String {
        closest(to: typed, among: names).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
    }
}
