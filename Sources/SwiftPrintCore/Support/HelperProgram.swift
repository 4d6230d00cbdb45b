import Foundation

/// swiftprint's helper executables (swiftprint-image, swiftprint-markup, swiftprint-map):
/// programs that run one kind of job in a process of its own, so that other jobs never load
/// their libraries.
package enum HelperProgram {
    /// Where `name` is: the path in `$environmentVariable`, else beside the running executable,
    /// else in /usr/local/libexec/swiftprint or /usr/libexec/swiftprint. Nil when none is there.
    package static func find(_ name: String, environmentVariable: String) -> String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment[environmentVariable] { candidates.append(path) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name).path)
        }
        candidates += ["/usr/local/libexec/swiftprint/" + name, "/usr/libexec/swiftprint/" + name]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// How a helper program reports the error that stopped it: one JSON object on its standard
/// output, read back by the handler that ran it, so the error keeps its code and its file.
package struct HelperFailure: Codable, Sendable {
    var code: String
    var path: String?
    var message: String

    package init(_ error: PrintError) {
        code = error.code.description
        path = error.path
        message = error.message
    }

    package var error: PrintError { PrintError(PrintError.Code(named: code), path: path, message) }

    /// The JSON line to write.
    package var line: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self) }

    /// The failure a helper wrote on its standard output, if it wrote one.
    package init?(output: Data) {
        guard let failure = try? JSONDecoder().decode(HelperFailure.self, from: output) else { return nil }
        self = failure
    }
}
