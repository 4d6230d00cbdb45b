#if canImport(Glibc)
import Glibc
#endif

/// The environment cupsd gives a backend (DEVICE_URI, CUPS_SERVERBIN, …), read from `environ`
/// once at start: the backends do without Foundation, which would read it for them.
public enum BackendEnvironment {
    public static func read() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") { environment[String(pair[..<eq])] = String(pair[pair.index(after: eq)...]) }
            entry += 1
        }
        return environment
    }
}
