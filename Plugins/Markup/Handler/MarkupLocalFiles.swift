import Foundation
import Logging
import HandlerSupport

/// What a page may read on this machine, what it named and could not load, and the name
/// warnings give it: the user's own file by its path, a print job's by its title.
extension MarkupTextPrintFormatter {
    /// The folder whose files the page may read: `allowedFolder`, else the document's own; nil
    /// when it may read none.
    var readableFolder: URL? {
        switch source {
        case .text: baseURL.map { allowedFolder ?? $0.deletingLastPathComponent() }
        case .file(let path, _, let readsOwnFolder):
            readsOwnFolder ? allowedFolder ?? URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent() : nil
        }
    }

    /// The name warnings give the document: its path where the page may read its folder (a
    /// user's own file), else the name it was given (a print job's title, never cupsd's spool
    /// file).
    var shownName: String {
        switch source {
        case .file(let path, let name, let readsOwnFolder): readsOwnFolder ? path : name
        case .text(_, let madeFrom): baseURL != nil ? madeFrom ?? "markup text" : documentName ?? "markup text"
        }
    }

    /// Says once, for the whole document, which style sheets and images it names were not
    /// loaded, and why: outside the folder the page may read (and the option that widens it),
    /// any local file in a print job, or missing.
    func warnNotLoaded(_ urls: [String]) {
        guard !urls.isEmpty else { return }
        let allowed = readableFolder?.path
        var outside: [String] = [], missing: [String] = [], other: [String] = []
        for text in urls where !text.hasPrefix("data:") {
            guard let url = URL(string: text), url.isFileURL else { other.append(text); continue }
            let path = url.standardizedFileURL.path
            if allowed == nil || !(allowed == "/" || path.hasPrefix(allowed! + "/")) {
                outside.append(path)
            } else if !FileManager.default.fileExists(atPath: path) {
                missing.append(path)
            } else {
                other.append(path)
            }
        }
        let name = shownName
        // A print job's page is loaded as if alone in an empty scratch folder: its references
        // are said as the page wrote them (../style.css), not as paths in that folder.
        if allowed == nil, let scratch = try? Self.emptyFolderURL().standardizedFileURL.path {
            outside = outside.map { Self.relative($0, to: scratch) }
        }
        if !outside.isEmpty {
            let reason = allowed == nil
                ? "a page in a print job reads no local file"
                : "outside the folder the page may read (\(allowed!)); --allow-files \(Self.commonFolder(outside.map { ($0 as NSString).deletingLastPathComponent } + [allowed!])) lets it"
            Self.logger.warning("\(name): not loaded, \(reason): \(outside.joined(separator: ", "))")
        }
        if !missing.isEmpty { Self.logger.warning("\(name): not found: \(missing.joined(separator: ", "))") }
        if !other.isEmpty { Self.logger.warning("\(name): not loaded: \(other.joined(separator: ", "))") }
    }

    /// `path` as a reference from `folder` (`../style.css`).
    static func relative(_ path: String, to folder: String) -> String {
        let target = path.split(separator: "/"), base = folder.split(separator: "/")
        let shared = zip(target, base).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: base.count - shared) + target.dropFirst(shared).map(String.init)).joined(separator: "/")
    }

    /// The deepest folder that holds every one of `folders`.
    static func commonFolder(_ folders: [String]) -> String {
        let parts = folders.map { $0.split(separator: "/") }
        var common = parts.first ?? []
        for p in parts.dropFirst() { common = Array(zip(common, p).prefix { $0 == $1 }.map(\.0)) }
        return "/" + common.joined(separator: "/")
    }
}
