import Foundation

/// The processes below one process, as /proc shows them: a job's helpers, cupsd's filters and
/// backends, WebKit's processes behind its sandbox.
public enum ProcessTree {
    /// Every process whose ancestry reaches `root`, with its program's file name (from
    /// /proc/PID/exe; the kernel's 15-character name when that cannot be read).
    public static func descendants(of root: pid_t) -> [(pid: pid_t, name: String)] {
        var parent: [pid_t: pid_t] = [:], comm: [pid_t: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            comm[pid] = String(stat[stat.index(after: open)..<close])
            // After the name: the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let ppid = pid_t(fields[1]) { parent[pid] = ppid }
        }
        return parent.keys.filter { pid in
            var up = parent[pid]
            while let p = up, p > 1 {
                if p == root { return true }
                up = parent[p]
            }
            return false
        }.map { pid in
            let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
            return (pid, exe.map { ($0 as NSString).lastPathComponent } ?? comm[pid] ?? "?")
        }
    }
}
