import Foundation

/// A document's own page setup — an HTML document's CSS `@page` — which the job's paper follows
/// where the job sets nothing: the job's option > the document's own > the queue's default >
/// the locale (`JobSettings.paper(document:)`).
public struct DocumentPageSetup: Equatable, Sendable {
    /// The page size in points, turned as the document says; nil when it names none.
    public var size: CGSize?
    /// An orientation without a size (`@page { size: landscape }`): the job's paper, turned.
    public var orientation: PrintInfo.Orientation?
    /// Margins the document sets; edges it leaves alone are nil.
    public var marginTop, marginLeft, marginBottom, marginRight: Double?

    public init(size: CGSize? = nil, orientation: PrintInfo.Orientation? = nil) {
        self.size = size
        self.orientation = orientation
    }

    /// A document's paper and orientation given by name (`"A4"`, `"landscape"`), as a map
    /// description gives them; nil when it names neither. Errors name `path`.
    public static func named(paper: String?, orientation: String?, path: String) throws -> DocumentPageSetup? {
        guard paper != nil || orientation != nil else { return nil }
        var setup = DocumentPageSetup()
        if let paper {
            guard let media = MediaSize.named(paper) else { throw PrintError(.invalidInput, path: path, "unknown paper \"\(paper)\"") }
            setup.size = media.size
        }
        if let orientation {
            guard let o = PrintInfo.Orientation(rawValue: orientation) else {
                throw PrintError(.invalidInput, path: path, "orientation is portrait or landscape, not \"\(orientation)\"")
            }
            setup.orientation = o
            if let s = setup.size, o == .landscape, s.width < s.height { setup.size = CGSize(width: s.height, height: s.width) }
        }
        return setup
    }

    /// The document's margins over `defaults`.
    public func margins(over defaults: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: marginTop ?? defaults.top, left: marginLeft ?? defaults.left,
                   bottom: marginBottom ?? defaults.bottom, right: marginRight ?? defaults.right)
    }
}
