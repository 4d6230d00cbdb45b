// The CUPS backend of swiftprint's printer queues, installed mode 0755 (cupsd runs it as lp, as
// it runs CUPS's own ipp backend) as $(cups-config --serverbin)/backend/swiftprint-ipp and
// swiftprint-ipps: a thin shell over CUPSBackend.PrinterRelay, which holds the logic.
import Glibc
import CUPSBackend
import CUPSCommon

SchedulerLifetime.endWithScheduler()
CUPSMessages.exitWhenRead(PrinterRelay.run(arguments: CommandLine.arguments, environment: BackendEnvironment.read()))
