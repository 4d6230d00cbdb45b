#if canImport(Glibc)
import Glibc
#endif
import CSpawnShim

/// A job's filter and backends end with the cupsd that started them. cupsd stops its jobs'
/// processes when it is stopped (SIGTERM), but a cupsd that crashes or is SIGKILLed (the
/// out-of-memory killer) stops nothing: the filter and backend would go on and finish the job,
/// and the cupsd started again runs the same job from the start, so it is saved, or printed on
/// paper, twice (SchedulerFaultTests). So they take SIGTERM when cupsd ends, and their
/// handlers stop the job as cupsd's own SIGTERM would: nothing half-written left.
public enum SchedulerLifetime {
    /// Ties this process to its parent when that parent is cupsd (by its name in /proc, which
    /// an `lp` process may read of root's cupsd); run by hand or by a test, it changes nothing.
    public static func endWithScheduler() {
        let parent = getppid()
        guard programName(of: parent) == "cupsd" else { return }
        if SPEndWithParent(parent, SIGTERM) == 1 { raise(SIGTERM) }
    }

    /// /proc/PID/comm without its newline: the kernel's name of the process.
    static func programName(of pid: pid_t) -> String? {
        let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = read(fd, &bytes, bytes.count)
        guard n > 0 else { return nil }
        let end = bytes[n - 1] == UInt8(ascii: "\n") ? n - 1 : n
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
