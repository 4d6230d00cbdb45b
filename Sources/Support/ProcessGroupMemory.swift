import Foundation

// A process group's memory, read from /proc: what a helper that reserves far more address space
// than it uses (WebKit's processes) is measured by.

extension ChildProcess {
    /// The most memory every process in the process group `group` has held resident since
    /// `resetPeakResidentBytes(ofGroup:)` (or since it started), in bytes, added up: each
    /// process's high-water mark (VmHWM in /proc/PID/status). What a program that reserves far
    /// more address space than it uses (WebKit's processes reserve about 5 GB each, and fail
    /// under any RLIMIT_DATA or RLIMIT_AS below it) is measured by instead. A peak, not what is
    /// resident at the moment asked: a burst between two looks is still seen. The sum of each
    /// process's peak is at least the group's peak (their peaks may fall at different moments).
    package static func peakResidentBytes(ofGroup group: pid_t) -> Int {
        processes(inGroup: group).reduce(0) { total, pid in
            guard let status = procFile("/proc/\(pid)/status"),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kilobytes = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
            else { return total }
            return total + kilobytes * 1024
        }
    }

    /// Starts each process of the group `group` afresh for `peakResidentBytes`: its high-water
    /// mark becomes what it holds now ("5" to /proc/PID/clear_refs, Linux 4.0 and later; a
    /// process of this user only). A renderer that serves several documents is measured for each
    /// on its own.
    package static func resetPeakResidentBytes(ofGroup group: pid_t) {
        for pid in processes(inGroup: group) {
            let fd = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            _ = write(fd, "5", 1)
            close(fd)
        }
    }

    /// A small /proc file's text, read with read(2). Foundation's String(contentsOfFile:)
    /// leaked its 4 KB buffer when the process went away in the middle of the read (seen by
    /// LeakSanitizer in the markup fuzz target): processes of a group come and go while it is
    /// walked.
    static func procFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The processes whose process group is `group`, from /proc.
    static func processes(inGroup group: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry in
            guard entry.first?.isNumber == true, let pid = pid_t(entry),
                  // "pid (comm) state ppid pgrp …": fields after the command's closing parenthesis.
                  let stat = procFile("/proc/\(entry)/stat"),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[2]) == group ? pid : nil
        }
    }
}
