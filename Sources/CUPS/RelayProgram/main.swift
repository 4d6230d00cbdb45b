// The CUPS backend of swiftprint's printer queues, installed mode 0755 (cupsd runs it as lp, as
// it runs CUPS's own ipp backend) as $(cups-config --serverbin)/backend/swiftprint-ipp and
// swiftprint-ipps: a thin shell over CUPSBackend.PrinterRelay, which holds the logic.
import Glibc
import CUPSBackend

var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let eq = pair.firstIndex(of: "=") { environment[String(pair[..<eq])] = String(pair[pair.index(after: eq)...]) }
    entry += 1
}
exit(PrinterRelay.run(arguments: CommandLine.arguments, environment: environment))
