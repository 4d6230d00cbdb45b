import Foundation

/// What a printer leaves blank at the edges of each paper it takes, from its
/// `media-col-database` (or its queue's PPD, `*ImageableArea`), and the papers it prints to the
/// edge. Drawn content keeps clear of these edges; a borderless job (a photo) keeps clear of none
/// only on paper the printer prints borderless.
public struct PrinterMargins: Sendable, Equatable, Hashable, Codable {
    /// PWG media name → the smallest margins the printer gives that paper, in points.
    public var byMedia: [String: EdgeInsets]
    /// PWG media names the printer prints with no margins.
    public var borderless: Set<String>

    public init(byMedia: [String: EdgeInsets] = [:], borderless: Set<String> = []) {
        self.byMedia = byMedia; self.borderless = borderless
    }

    /// A paper's margins as the printer lists it (one entry of its media database): the
    /// smallest of each edge wins; no margins at all marks the paper borderless.
    public mutating func add(media: String, edges: EdgeInsets) {
        if edges == .zero { borderless.insert(media); return }
        if let known = byMedia[media] {
            byMedia[media] = EdgeInsets(top: min(known.top, edges.top), left: min(known.left, edges.left),
                                        bottom: min(known.bottom, edges.bottom), right: min(known.right, edges.right))
        } else {
            byMedia[media] = edges
        }
    }

    /// The edges left blank on `media` (PWG name): none for a borderless job on paper printed
    /// borderless; else the paper's margins; else, for paper the printer does not list, the
    /// largest margins it gives any paper (safe on all of them); zero when it says nothing.
    public func edges(for media: String, borderless wanted: Bool) -> EdgeInsets {
        if wanted, borderless.contains(media) { return .zero }
        if let edges = byMedia[media] { return edges }
        return byMedia.values.reduce(EdgeInsets.zero) {
            EdgeInsets(top: max($0.top, $1.top), left: max($0.left, $1.left), bottom: max($0.bottom, $1.bottom), right: max($0.right, $1.right))
        }
    }
}
