import Foundation

/// A real browser driven through WebDriver: Debian's Chromium, headless, through its
/// chromedriver. For tests of pages swiftprint serves (the web Print Center). Each request goes
/// through curl, as JSON.
public final class WebDriver {
    public static var canRun: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let driver = Process()
    private let base: String
    private let session: String

    /// Starts chromedriver on a free port and a headless Chromium session of `width` × `height`.
    public init(width: Int = 1100, height: Int = 900) throws {
        let port = Int.random(in: 20_000..<60_000)
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? Tool.run("/usr/bin/curl", ["-s", "--max-time", "1", base + "/status"]))?.text.contains("\"ready\":true") == true
            if !ready { usleep(50_000) }
        }
        guard ready else { driver.terminate(); throw Failure(description: "chromedriver did not start") }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": [
            "binary": "/usr/bin/chromium",
            // Root in CI: Chromium's own sandbox needs user namespaces it may not have there.
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=\(width),\(height)"],
        ]]]]
        let answer = try Self.call(base + "/session", "POST", capabilities)
        guard let value = answer["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            driver.terminate()
            throw Failure(description: "no session: \(answer)")
        }
        session = base + "/session/" + id
    }

    deinit { quit() }

    public func quit() {
        guard driver.isRunning else { return }
        _ = try? Self.call(session, "DELETE", nil)
        // chromedriver does not always end on SIGTERM (seen waiting for ever): it is killed.
        kill(driver.processIdentifier, SIGKILL)
        driver.waitUntilExit()
    }

    public func open(_ url: String) throws { _ = try Self.call(session + "/url", "POST", ["url": url]) }

    /// Runs `script` (a function body: `return …`) in the page; its result.
    @discardableResult
    public func run(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try Self.call(session + "/execute/sync", "POST", ["script": script, "args": arguments])["value"]
    }

    /// Waits (up to `seconds`) until `script` returns true in the page.
    public func wait(seconds: Double = 10, until script: String) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try run(script) as? Bool == true { return }
            usleep(100_000)
        }
        throw Failure(description: "not true after \(seconds) s: \(script)")
    }

    /// Gives `files` to the file input `selector` as a user picking them would.
    public func choose(files: [String], in selector: String) throws {
        let found = try Self.call(session + "/element", "POST", ["using": "css selector", "value": selector])
        guard let element = (found["value"] as? [String: Any])?.values.first as? String else { throw Failure(description: "no element \(selector)") }
        _ = try Self.call(session + "/element/\(element)/value", "POST", ["text": files.joined(separator: "\n")])
    }

    /// Keys a test presses (WebDriver's code points for them).
    public enum Key: String {
        case tab = "\u{E004}", enter = "\u{E007}"
    }

    /// Presses and lets go of `key`, as a person at the keyboard does, on whatever has focus.
    public func press(_ key: Key) throws { try type(key.rawValue) }

    /// Types `text` a key at a time into whatever has focus.
    public func type(_ text: String) throws {
        let strokes = text.unicodeScalars.flatMap { [["type": "keyDown", "value": String($0)], ["type": "keyUp", "value": String($0)]] }
        _ = try Self.call(session + "/actions", "POST", ["actions": [["type": "key", "id": "keyboard", "actions": strokes]]])
    }

    /// Makes the window `width` × `height` (half the width shows what 200 % zoom shows).
    public func resize(width: Int, height: Int) throws {
        _ = try Self.call(session + "/window/rect", "POST", ["width": width, "height": height])
    }

    /// A PNG of the window, written to `path`.
    public func screenshot(to path: String) throws {
        guard let text = try Self.call(session + "/screenshot", "GET", nil)["value"] as? String, let png = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        try png.write(to: URL(fileURLWithPath: path))
    }

    /// The browser's console lines of level SEVERE since the last call (errors the page had).
    public func consoleErrors() throws -> [String] {
        let entries = try Self.call(session + "/se/log", "POST", ["type": "browser"])["value"] as? [[String: Any]] ?? []
        return entries.filter { $0["level"] as? String == "SEVERE" }.compactMap { $0["message"] as? String }
    }

    private static func call(_ url: String, _ method: String, _ body: [String: Any]?) throws -> [String: Any] {
        var args = ["-s", "--max-time", "60", "-X", method, url, "-H", "Content-Type: application/json"]
        if let body { args += ["-d", String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)] }
        let r = try Tool.run("/usr/bin/curl", args)
        guard let object = try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
            throw Failure(description: "\(method) \(url): \(r.text.prefix(500))")
        }
        if let value = object["value"] as? [String: Any], let error = value["error"] as? String {
            throw Failure(description: "\(method) \(url): \(error): \(value["message"] ?? "")")
        }
        return object
    }
}
