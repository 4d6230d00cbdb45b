// The CUPS backend, installed mode 0700 as $(cups-config --serverbin)/backend/swiftprint: a thin
// shell over CUPSBackend.SpoolBackend, which holds the logic (and its tests). No Foundation:
// cupsd starts it as root for every document, so it stays small (a few MB) and quick to start.
import Glibc
import CUPSBackend

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let eq = pair.firstIndex(of: "=") { environment[String(pair[..<eq])] = String(pair[pair.index(after: eq)...]) }
    entry += 1
}
exit(SpoolBackend.run(arguments: CommandLine.arguments, environment: environment))
