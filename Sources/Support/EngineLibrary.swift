import Foundation

/// Where the engines swiftprint opens at run time are installed.
package enum EngineLibrary {
    /// Where the library `name` may be: `$override` (alone, when set: no silent fallback to
    /// another copy); beside the running executable (as `swift build` leaves it); in
    /// `lib/swiftprint` of the folder above it, or above that, and so on — an installation's
    /// prefix, whether the executable is in `bin/`, `libexec/swiftprint/` or elsewhere below it;
    /// then /usr/local/lib/swiftprint and /usr/lib/swiftprint.
    package static func candidates(_ name: String, override: String) -> [String] {
        if let path = ProcessInfo.processInfo.environment[override] { return [path] }
        var paths: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            paths.append(dir.appendingPathComponent(name).path)
            while dir.path != "/" {
                dir.deleteLastPathComponent()
                paths.append(dir.appendingPathComponent("lib/swiftprint/\(name)").path)
            }
        }
        return paths + ["/usr/local/lib/swiftprint/\(name)", "/usr/lib/swiftprint/\(name)"]
    }
}
