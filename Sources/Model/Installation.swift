import Foundation

/// Where swiftprint's installed files are, in one place: its data (`Config/`), its engines
/// (the libraries it opens at run time) and its helper programs. Each is looked for from the
/// running executable's real path (a symlink in /usr/bin still finds its installation), so a
/// build tree, an installation at any prefix and Debian's places all work without settings;
/// an environment variable names each one for tests and unusual layouts.
package enum Installation {
    /// An installation's folders below its prefix: what `swiftprint install` (and a package)
    /// writes, and what the finders below look in.
    package static let helperFolder = "libexec/swiftprint"
    package static let engineFolder = "lib/swiftprint"
    package static let dataFolder = "share/swiftprint"

    /// The running executable's real path (symlinks followed), when /proc says it.
    package static var executable: String? { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") }

    /// The folder of `Config/`'s data files: `$SWIFTPRINT_CONFIG_DIR`, else
    /// `<executable>/../share/swiftprint/Config` (an installation; also `../../share` for the
    /// helpers in `<prefix>/libexec/swiftprint`), else the `Config/` of the source tree the
    /// executable was built in, else `/usr/local/share/swiftprint/Config`,
    /// `/usr/share/swiftprint/Config`; the first that holds papers.tsv. Nil when none does.
    package static let configDirectory: String? = {
        var candidates: [String] = []
        if let dir = ProcessInfo.processInfo.environment["SWIFTPRINT_CONFIG_DIR"] { candidates.append(dir) }
        var dir = URL(fileURLWithPath: executable ?? CommandLine.arguments.first ?? "/").deletingLastPathComponent()
        candidates.append(dir.appendingPathComponent("../\(dataFolder)/Config").standardized.path)
        candidates.append(dir.appendingPathComponent("../../\(dataFolder)/Config").standardized.path)
        while dir.path != "/" {
            candidates.append(dir.appendingPathComponent("Config").path)
            dir.deleteLastPathComponent()
        }
        candidates += ["/usr/local/\(dataFolder)/Config", "/usr/\(dataFolder)/Config"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/papers.tsv") }
    }()

    /// Where the engine library `name` may be: `$override` (alone, when set: no silent fallback
    /// to another copy); beside the running executable (as `swift build` leaves it); in
    /// `lib/swiftprint` of the folder above it, or above that, and so on — an installation's
    /// prefix, whether the executable is in `bin/`, `libexec/swiftprint/` or elsewhere below it;
    /// then /usr/local/lib/swiftprint and /usr/lib/swiftprint.
    package static func engineCandidates(_ name: String, override: String) -> [String] {
        if let path = ProcessInfo.processInfo.environment[override] { return [path] }
        var paths: [String] = []
        if let exe = executable {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            paths.append(dir.appendingPathComponent(name).path)
            while dir.path != "/" {
                dir.deleteLastPathComponent()
                paths.append(dir.appendingPathComponent("\(engineFolder)/\(name)").path)
            }
        }
        return paths + ["/usr/local/\(engineFolder)/\(name)", "/usr/\(engineFolder)/\(name)"]
    }

    /// Where the helper program `name` is: the path in `$override`, else beside the running
    /// executable, else in the `libexec/swiftprint` of its installation's prefix, else in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint. Nil when none is there.
    package static func helper(_ name: String, override: String) -> String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment[override] { candidates.append(path) }
        if let exe = executable {
            let folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent(name).path)
            // An installation's own libexec, at whatever prefix (`PREFIX/bin/swiftprint`).
            candidates.append(folder.deletingLastPathComponent().appendingPathComponent("\(helperFolder)/\(name)").path)
        }
        candidates += ["/usr/local/\(helperFolder)/\(name)", "/usr/\(helperFolder)/\(name)"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

extension Installation {
    /// Throws when the installation lacks the data every job needs (the paper catalogue): each
    /// door (a conversion, a library's print job) asks before a job names a paper.
    package static func checkData() throws {
        if let error = MediaCatalogue.shared.dataError { throw error }
    }
}
