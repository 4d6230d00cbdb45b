import Foundation
import PrintModel

/// swiftprint's helper executables (swiftprint-image, swiftprint-markup, swiftprint-map):
/// programs that run one kind of job in a process of its own, so that other jobs never load
/// their libraries.
package enum HelperProgram {
    /// Where `name` is: the path in `$environmentVariable`, else beside the running executable,
    /// else in the `libexec/swiftprint` of its installation's prefix, else in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint. Nil when none is there.
    package static func find(_ name: String, environmentVariable: String) -> String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment[environmentVariable] { candidates.append(path) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent(name).path)
            // An installation's own libexec, at whatever prefix (`PREFIX/bin/swiftprint`).
            candidates.append(folder.deletingLastPathComponent().appendingPathComponent("libexec/swiftprint/" + name).path)
        }
        candidates += ["/usr/local/libexec/swiftprint/" + name, "/usr/libexec/swiftprint/" + name]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
