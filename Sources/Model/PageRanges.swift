/// The pages a job prints, as IPP's `page-ranges` says them: `1-3,7,10-`. Pages count from 1.
public struct PageRanges: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Closed ranges of page numbers; an open end is `Int.max`.
    public private(set) var ranges: [ClosedRange<Int>]

    /// Every page.
    public static let all = PageRanges(ranges: [1...Int.max])

    public init(ranges: [ClosedRange<Int>]) {
        self.ranges = ranges.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Parses `1-3,7`, `5-` (5 to the end) and `-3` (1 to 3). Nil for anything else.
    public init?(_ text: String) {
        var result: [ClosedRange<Int>] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = part.trimmingCharacters(in: .whitespaces)
            if let dash = item.firstIndex(of: "-") {
                let lowText = item[..<dash], highText = item[item.index(after: dash)...]
                guard !(lowText.isEmpty && highText.isEmpty) else { return nil }
                let low = lowText.isEmpty ? 1 : Int(lowText)
                let high = highText.isEmpty ? Int.max : Int(highText)
                guard let low, let high, low >= 1, high >= low else { return nil }
                result.append(low...high)
            } else {
                guard let page = Int(item), page >= 1 else { return nil }
                result.append(page...page)
            }
        }
        guard !result.isEmpty else { return nil }
        self.init(ranges: result)
    }

    public func contains(_ page: Int) -> Bool { ranges.contains { $0.contains(page) } }

    /// The last page any range asks for; `Int.max` when a range is open.
    public var lastPage: Int { ranges.map(\.upperBound).max() ?? 0 }

    public var isAll: Bool { ranges.contains { $0.lowerBound == 1 && $0.upperBound == Int.max } }

    public var description: String {
        ranges.map { r in
            r.upperBound == Int.max ? "\(r.lowerBound)-" : r.count == 1 ? "\(r.lowerBound)" : "\(r.lowerBound)-\(r.upperBound)"
        }.joined(separator: ",")
    }
}

import Foundation
