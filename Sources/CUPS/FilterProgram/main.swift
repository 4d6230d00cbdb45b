// The CUPS filter, installed as $(cups-config --serverbin)/filter/swiftprint: a thin shell over
// CUPSFilter.PrintFilter, which holds the logic (and its tests).
import Foundation
import CUPSCommon
import CUPSFilter

SchedulerLifetime.endWithScheduler()
CUPSMessages.exitWhenRead(PrintFilter.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
