import Foundation

/// A sheet of paper and the part of it a printer can mark, like UIKit's UIPrintPaper.
public struct PrintPaper: Hashable, Codable, Sendable {
    /// The media, in portrait.
    public var media: MediaSize
    /// The size of the paper as printed, after orientation.
    public var paperSize: CGSize
    /// Where the printer can mark, in the paper's coordinates (origin top-left).
    public var printableRect: CGRect

    /// Paper of `media` in `orientation`, with `margins` around the printable area.
    public init(media: MediaSize, orientation: PrintInfo.Orientation = .portrait, margins: EdgeInsets = .zero) {
        self.media = media
        let s = media.size
        paperSize = orientation == .landscape ? CGSize(width: s.height, height: s.width) : s
        printableRect = CGRect(origin: .zero, size: paperSize).inset(by: margins)
    }

    /// The space around the printable area.
    public var margins: EdgeInsets {
        EdgeInsets(top: printableRect.minY, left: printableRect.minX,
                   bottom: paperSize.height - printableRect.maxY, right: paperSize.width - printableRect.maxX)
    }

    /// The same paper with its margins, turned to `orientation`.
    public func turned(to orientation: PrintInfo.Orientation) -> PrintPaper {
        let isLandscape = paperSize.width > paperSize.height
        guard isLandscape != (orientation == .landscape), paperSize.width != paperSize.height else { return self }
        var p = self
        p.paperSize = CGSize(width: paperSize.height, height: paperSize.width)
        // The top margin becomes the right one, as the sheet turns a quarter anticlockwise.
        let r = printableRect
        p.printableRect = CGRect(x: r.minY, y: paperSize.width - r.maxX, width: r.height, height: r.width)
        return p
    }

    /// A sheet of `size` points (a PDF page's own size) with this paper's margins.
    public func resized(to size: CGSize) -> PrintPaper {
        var p = self
        let r = printableRect
        p.media = .custom(points: size)
        p.paperSize = size
        let margins = EdgeInsets(top: r.minY, left: r.minX, bottom: paperSize.height - r.maxY, right: paperSize.width - r.maxX)
        p.printableRect = CGRect(origin: .zero, size: size).inset(by: margins)
        return p
    }

    /// The paper from `papers` that best fits a page of `pageSize`, as UIPrintPaper's
    /// bestPaperForPageSize:withPapersFromArray: does: the smallest paper the page fits on
    /// (in either orientation); when none is big enough, the one that needs the least shrinking.
    /// A page fits a paper of its own size: an A4 page gets A4 paper, and is drawn within the
    /// printable area the printer leaves on it.
    public static func best(for pageSize: CGSize, from papers: [PrintPaper]) -> PrintPaper? {
        func fits(_ p: PrintPaper) -> Bool {
            let w = p.paperSize.width + 0.5, h = p.paperSize.height + 0.5
            return (w >= pageSize.width && h >= pageSize.height) || (h >= pageSize.width && w >= pageSize.height)
        }
        func scale(_ p: PrintPaper) -> Double {
            let w = p.printableRect.width, h = p.printableRect.height
            return max(min(w / pageSize.width, h / pageSize.height), min(h / pageSize.width, w / pageSize.height))
        }
        let fitting = papers.filter(fits)
        if !fitting.isEmpty {
            return fitting.min { $0.paperSize.width * $0.paperSize.height < $1.paperSize.width * $1.paperSize.height }
        }
        return papers.max { scale($0) < scale($1) }
    }
}

/// The paper a job gets when nothing else names one: from the environment and the locale.
public enum PaperDefaults {
    /// Territories that use US Letter (CLDR's paperSize data); everywhere else uses A4.
    public static let letterTerritories: Set<String> = ["US", "CA", "MX", "PH", "CL", "CO", "VE", "PR",
                                                        "GT", "CR", "SV", "NI", "PA", "BZ"]

    /// The default media for `outputType`. The first that says something wins:
    /// `PAPERSIZE`, `LC_ALL`, `LC_PAPER`, `/etc/papersize`, `LANG`; else A4.
    /// Photo output gets 4×6 in in Letter territories and A6 elsewhere, as UIKit does.
    public static func media(for outputType: PrintInfo.OutputType,
                             environment: [String: String] = ProcessInfo.processInfo.environment,
                             paperSizeFile: String = "/etc/papersize") -> MediaSize {
        let usesLetter = systemPaperIsLetter(environment: environment, paperSizeFile: paperSizeFile)
        switch outputType {
        case .photo, .photoGrayscale: return usesLetter ? .photo4x6 : .a6
        case .general, .grayscale:
            if let name = environment["PAPERSIZE"], let media = MediaSize.named(name) { return media }
            return usesLetter ? .letter : .a4
        }
    }

    static func systemPaperIsLetter(environment: [String: String], paperSizeFile: String) -> Bool {
        if let name = environment["PAPERSIZE"], let media = MediaSize.named(name) {
            return media.pwgName.hasPrefix("na_")
        }
        for key in ["LC_ALL", "LC_PAPER"] {
            if let territory = territory(of: environment[key]) { return letterTerritories.contains(territory) }
        }
        if let text = try? String(contentsOfFile: paperSizeFile, encoding: .utf8) {
            let name = text.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.isEmpty }
            if let name, let media = MediaSize.named(name.trimmingCharacters(in: .whitespaces)) {
                return media.pwgName.hasPrefix("na_")
            }
        }
        if let territory = territory(of: environment["LANG"]) { return letterTerritories.contains(territory) }
        return false
    }

    /// `en_US.UTF-8@euro` → `US`; nil for `C`, `POSIX` and empty values.
    static func territory(of locale: String?) -> String? {
        guard let locale, !locale.isEmpty else { return nil }
        let base = locale.split(separator: ".").first.map(String.init) ?? locale
        let parts = base.split(separator: "_")
        guard parts.count >= 2 else { return nil }
        return String(parts[1].prefix { $0.isLetter }).uppercased()
    }
}
