// The CUPS backend, installed mode 0700 as $(cups-config --serverbin)/backend/swiftprint: a thin
// shell over CUPSBackend.SpoolBackend, which holds the logic (and its tests). No Foundation:
// cupsd starts it as root for every document, so it stays small (a few MB) and quick to start.
import Glibc
import CUPSBackend
import CUPSCommon

SchedulerLifetime.endWithScheduler()
CUPSMessages.exitWhenRead(SpoolBackend.run(arguments: CommandLine.arguments, environment: BackendEnvironment.read()))
