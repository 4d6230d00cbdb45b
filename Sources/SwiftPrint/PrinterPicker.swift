import CUPSLibrary
import Foundation

/// What a job needs of a printer: the picker offers only printers that can do it.
public struct PrinterRequirements: Hashable, Sendable {
    /// Prints in colour.
    public var color: Bool
    /// Prints on both sides.
    public var twoSided: Bool
    /// Takes this paper.
    public var paper: MediaSize?

    public init(color: Bool = false, twoSided: Bool = false, paper: MediaSize? = nil) {
        self.color = color; self.twoSided = twoSided; self.paper = paper
    }

    /// Whether a printer with these capabilities meets every requirement. A printer whose
    /// capabilities are unknown (it did not answer) meets none but the empty set.
    public func isMet(by capabilities: PrinterCapabilities?) -> Bool {
        guard color || twoSided || paper != nil else { return true }
        guard let capabilities else { return false }
        if color, !capabilities.colorModes.contains("color") { return false }
        if twoSided, !capabilities.sides.contains(where: { $0.hasPrefix("two-sided") }) { return false }
        if let paper, !capabilities.media.contains(where: { MediaCatalogue.shared.media(named: $0)?.pwgName == paper.pwgName }) { return false }
        return true
    }
}

/// UIPrinterPickerController's model: the printers with their capabilities, those a job can use,
/// and the app's last choice, first in the list and remembered between runs under the user's
/// XDG config folder (`$XDG_CONFIG_HOME/swiftprint/printer-picker.json`, else
/// `~/.config/swiftprint/printer-picker.json`), one entry per app.
public struct PrinterPicker: Sendable {
    /// The app whose choice is remembered (the program's name by default).
    public var appID: String
    public var requirements: PrinterRequirements

    public init(appID: String = ProcessInfo.processInfo.processName, requirements: PrinterRequirements = PrinterRequirements()) {
        self.appID = appID
        self.requirements = requirements
    }

    /// The printers that meet the requirements: the app's last choice first, then CUPS's
    /// default, then by name. Each is asked for its capabilities.
    public func printers() async throws -> [Printer] {
        arranged(try await PrinterDirectory.printers(capabilities: true))
    }

    /// The same list, asked on the caller's thread (a command-line program's).
    public func printers() throws -> [Printer] {
        arranged(try PrinterDirectory.printers(capabilities: true))
    }

    private func arranged(_ all: [Printer]) -> [Printer] {
        let last = lastChoice
        return all.filter { requirements.isMet(by: $0.capabilities) }.sorted { a, b in
            func rank(_ p: Printer) -> Int { p.name == last ? 0 : p.isDefault ? 1 : 2 }
            return (rank(a), a.name) < (rank(b), b.name)
        }
    }

    /// The printer the app chose last, if it chose one.
    public var lastChoice: String? { (try? Self.readChoices())?[appID] }

    /// Remembers `printer` as the app's choice.
    public func remember(_ printer: String) throws {
        var choices = (try? Self.readChoices()) ?? [:]
        choices[appID] = printer
        let file = Self.choicesFile
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try JSONEncoder.sorted.encode(choices)
        do { try data.write(to: file, options: .atomic) } catch {
            throw PrintError(.outputFailed, path: file.path, "cannot remember the chosen printer: \(error.localizedDescription)")
        }
    }

    /// Where the choices are kept.
    public static var choicesFile: URL {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("swiftprint/printer-picker.json")
    }

    private static func readChoices() throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(contentsOf: choicesFile))
    }
}

private extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }
}

extension Printer {
    /// Whether the printer answers now (UIPrinter's `contactPrinter`): its queue takes jobs and
    /// is not stopped, and a network printer (`ipp://`, `ipps://`) answers an IPP
    /// Get-Printer-Attributes within `timeout` seconds.
    public func contactPrinter(timeout: Int = 5) async -> Bool {
        guard isAcceptingJobs, state != .stopped else { return false }
        guard let uri = printerURI else { return true }
        return (try? await BlockingCall.run {
            _ = try PrinterAttributes.ask(try PrinterAddress(uri: uri), timeout: timeout)
            return true
        }) ?? false
    }
}
