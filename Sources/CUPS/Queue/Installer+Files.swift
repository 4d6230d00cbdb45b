import Foundation
import PrintModel

/// The installer's steps on files: each records what it added in the manifest (by its final
/// path), writes nothing that is already as it should be, and writes under `destination` when
/// a package is being staged.
extension Installer {
    /// Where `path` is written: under the staging root, when there is one.
    func staged(_ path: String) -> String { destination.isEmpty ? path : destination + path }

    func makeFolder(_ path: String, mode: Int, _ manifest: inout Manifest) throws {
        guard !FileManager.default.fileExists(atPath: staged(path)), !(dryRun && manifest.contains(path)) else { return }
        // Parents first, so that each folder made is listed for uninstall.
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path, !parent.isEmpty { try makeFolder(parent, mode: mode, &manifest) }
        manifest.add("folder", path)
        say("create \(path)/")
        if !dryRun { try FileManager.default.createDirectory(atPath: staged(path), withIntermediateDirectories: true, attributes: [.posixPermissions: mode]) }
    }

    /// Where the program or engine `name` is: beside the running swiftprint (the build folder),
    /// or where an installation of it put it (`bin/../libexec/swiftprint`, `bin/../lib/swiftprint`):
    /// install runs from the source tree and from an installed copy alike.
    func product(_ name: String) -> String {
        let candidates = [products, products + "/../" + Installation.helperFolder, products + "/../" + Installation.engineFolder]
            .map { (($0 as NSString).standardizingPath as NSString).appendingPathComponent(name) }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[0]
    }

    func copy(_ source: String, to target: String, mode: Int, _ manifest: inout Manifest) throws {
        guard let data = FileManager.default.contents(atPath: source) else {
            throw PrintError(.inputUnreadable, path: source, "is missing, and not installed beside this swiftprint either: build it (scripts/build-release)")
        }
        try write(data, to: target, mode: mode, &manifest)
    }

    @discardableResult
    func write(_ text: String, to target: String, mode: Int, _ manifest: inout Manifest) throws -> Bool {
        try write(Data(text.utf8), to: target, mode: mode, &manifest)
    }

    /// Writes `data` to `target` through a temporary file and a rename (a running filter keeps
    /// its old file); unchanged files are left alone. Returns whether anything changed.
    @discardableResult
    func write(_ data: Data, to final: String, mode: Int, _ manifest: inout Manifest) throws -> Bool {
        let fm = FileManager.default
        let target = staged(final)
        if fm.fileExists(atPath: target), !manifest.contains(final), destination.isEmpty {
            throw PrintError(.outputFailed, path: target, "exists and was not installed by swiftprint; remove it first")
        }
        manifest.add("file", final)
        if fm.contents(atPath: target) == data,
           let perms = try? fm.attributesOfItem(atPath: target)[.posixPermissions] as? Int, perms == mode { return false }
        say("write \(target)")
        guard !dryRun else { return true }
        let temporary = target + ".swiftprint-new"
        // Written plainly, then renamed: FileManager.createFile writes atomically by itself, and on
        // Linux that leaves an empty TemporaryDirectory.* folder in /tmp every time.
        do { try data.write(to: URL(fileURLWithPath: temporary)) } catch {
            throw PrintError(.outputFailed, path: target, "cannot be written (are you root?)")
        }
        // Root's, as installed; a staged file's owner is the package builder's to set (dpkg-deb --root-owner-group).
        try fm.setAttributes(destination.isEmpty ? [.posixPermissions: mode, .ownerAccountID: 0, .groupOwnerAccountID: 0] : [.posixPermissions: mode],
                             ofItemAtPath: temporary)
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            try? fm.removeItem(atPath: temporary)
            throw PrintError(.outputFailed, path: target, "cannot be written: \(reason)")
        }
        return true
    }

    func link(_ final: String, to absolute: String, _ manifest: inout Manifest) throws {
        let fm = FileManager.default
        let path = staged(final)
        // A package's links are relative, as Debian's policy asks (they then hold wherever the
        // root is); an installation's name the file itself.
        let target = destination.isEmpty ? absolute : Self.relative(absolute, from: (final as NSString).deletingLastPathComponent)
        let current = try? fm.destinationOfSymbolicLink(atPath: path)
        if current == target { manifest.add("link", final); return }
        if fm.fileExists(atPath: path) || current != nil {
            guard manifest.contains(final) || !destination.isEmpty else {
                throw PrintError(.outputFailed, path: path, "exists and was not installed by swiftprint; remove it first")
            }
            if !dryRun { try fm.removeItem(atPath: path) }
        }
        say("link \(path) → \(target)")
        manifest.add("link", final)
        if !dryRun { try fm.createSymbolicLink(atPath: path, withDestinationPath: target) }
    }

    /// `path` as seen from the folder `folder` (`/usr/libexec/swiftprint/swiftprint-filter`
    /// from `/usr/lib/cups/filter`: `../../../libexec/swiftprint/swiftprint-filter`).
    static func relative(_ path: String, from folder: String) -> String {
        let to = path.split(separator: "/"), from = folder.split(separator: "/")
        let common = zip(to, from).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: from.count - common) + to.dropFirst(common).map(String.init)).joined(separator: "/")
    }
}
