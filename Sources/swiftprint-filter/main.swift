// The CUPS filter, installed as $(cups-config --serverbin)/filter/swiftprint: a thin shell over
// SwiftPrintCUPS.CUPSFilter, which holds the logic (and its tests).
import Foundation
import SwiftPrintCUPS

exit(CUPSFilter.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
