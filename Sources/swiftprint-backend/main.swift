// The CUPS backend, installed mode 0700 as $(cups-config --serverbin)/backend/swiftprint: a thin
// shell over SwiftPrintSpool.SpoolBackend, which holds the logic (and its tests).
import Foundation
import SwiftPrintSpool

exit(SpoolBackend.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
