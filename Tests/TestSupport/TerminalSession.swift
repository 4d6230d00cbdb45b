import Foundation

/// An interactive shell on a terminal of its own, typed into as a person types: for what a shell
/// shows when Tab is pressed, which only an interactive shell with a terminal does (fish's
/// `commandline` and zsh's completion widgets answer nothing without one). The terminal is
/// util-linux's `script`, which gives the shell a pseudo-terminal as its controlling one.
public final class TerminalSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var received = Data()

    /// Starts `shell` with `arguments` (no startup files: `zsh -f -i`, `fish --no-config -i`),
    /// with `environment` over this process's own.
    public init(_ shell: String, _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil) throws {
        let command = ([shell] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // -q: no banner; -f: output as it comes; -e: the shell's status; /dev/null: no typescript.
        process.arguments = ["-qfec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        env["TERM"] = "xterm"
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read on a thread of its own until the terminal closes.
        let reading = output.fileHandleForReading
        Thread.detachNewThread { [weak self] in
            while true {
                let data = reading.availableData
                guard !data.isEmpty, let self else { return }
                self.lock.withLock { self.received.append(data) }
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Types `text` (a `\t` is Tab, a `\r` is Return).
    public func type(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// What the terminal has shown since `forget()`, as text: colours, cursor moves and
    /// carriage returns taken out.
    public var screen: String {
        let raw = lock.withLock { String(decoding: received, as: UTF8.self) }
        return raw.replacingOccurrences(of: #"\x1B\[[0-9;?]*[ -/]*[@-~]|\x1B\][^\x07\x1B]*(\x07|\x1B\\)|\x1B[()][0-9A-Za-z]|\x1B[=>78]|[\r\x08]"#, with: "", options: .regularExpression)
    }

    /// Forgets what was shown so far, so that the next wait sees only what comes after.
    public func forget() {
        lock.withLock { received.removeAll() }
    }

    /// Waits until the screen shows what `done` looks for, or `timeout` seconds; returns the
    /// screen either way (the test says what it expected and shows what there was).
    @discardableResult
    public func wait(timeout: Double = 20, until done: (String) -> Bool) -> String {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let now = screen
            if done(now) { return now }
            usleep(50_000)
        }
        return screen
    }
}
