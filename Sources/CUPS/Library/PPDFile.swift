import CCupsShim
import Foundation
import PrintModel

/// A queue's PPD file, read by libcups: the defaults an administrator chose for the queue
/// (`*DefaultPageSize`, `*Defaultswiftprint-header`, …) and the sizes and printable areas of
/// its papers. The one owner of its `ppd_file_t`.
public final class PPDFile {
    private let ppd: UnsafeMutablePointer<ppd_file_t>

    /// Opens the PPD at `path` (a filter finds it in the PPD environment variable).
    public init(path: String) throws {
        try LibCUPS.load()
        guard let ppd = spcups_ppdOpenFile(path) else {
            var line: Int32 = 0
            let status = spcups_ppdLastError(&line)
            let reason = spcups_ppdErrorString(status).map { String(cString: $0) } ?? "unreadable"
            throw PrintError(.invalidInput, path: path, "the PPD cannot be read: \(reason) (line \(line))")
        }
        self.ppd = ppd
    }

    deinit { spcups_ppdClose(ppd) }

    /// Every option's default choice, in the PPD's order: (`PageSize`, `A4`), …
    public var defaults: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var option = spcups_ppdFirstOption(ppd)
        while let o = option {
            let keyword = withUnsafeBytes(of: o.pointee.keyword) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let choice = withUnsafeBytes(of: o.pointee.defchoice) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !choice.isEmpty { result.append((keyword, choice)) }
            option = spcups_ppdNextOption(ppd)
        }
        return result
    }

    /// The paper the PPD calls `name` (`A4`, `Letter`…): its size in points and the edges the
    /// printer cannot mark (from `*ImageableArea`), or nil.
    public func paper(named name: String) -> (size: CGSize, unprintable: EdgeInsets)? {
        guard let size = spcups_ppdPageSize(ppd, name) else { return nil }
        let s = size.pointee
        guard s.width > 0, s.length > 0 else { return nil }
        // PPD coordinates start at the bottom-left corner.
        return (CGSize(width: Double(s.width), height: Double(s.length)),
                EdgeInsets(top: Double(s.length - s.top), left: Double(s.left),
                           bottom: Double(s.bottom), right: Double(s.width - s.right)))
    }
}
