import Foundation
import Glibc
import SwiftPrint

/// `print --pick`: the printer picker in a terminal. On a terminal: the printers in a list, the
/// arrow keys move, typing filters by name, Enter chooses, Escape gives up. Otherwise (a pipe, a
/// script): a numbered list on standard error and the number read from standard input.
/// The choice is remembered for the next time (`PrinterPicker`, app "swiftprint").
enum PrinterChoice {
    static func pick(for requirements: PrinterRequirements) throws -> String {
        let picker = PrinterPicker(appID: "swiftprint", requirements: requirements)
        let printers = try picker.printers()
        guard !printers.isEmpty else {
            throw PrintError(.notAvailable, "no printer can print this job (swiftprint printers lists them all)")
        }
        let chosen = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
            ? try chooseInTerminal(printers)
            : try chooseByNumber(printers)
        try? picker.remember(chosen.name)
        return chosen.name
    }

    /// One line about a printer: its name, whether it is the default, what it does.
    static func describe(_ p: Printer) -> String {
        var facts: [String] = []
        if p.isDefault { facts.append("default") }
        if let c = p.capabilities {
            facts.append(c.colorModes.contains("color") ? "colour" : "monochrome")
            if c.sides.contains(where: { $0.hasPrefix("two-sided") }) { facts.append("two-sided") }
        }
        if p.state == .stopped { facts.append("stopped") }
        if let location = p.location, !location.isEmpty { facts.append(location) }
        return p.name + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))")
    }

    private static func chooseByNumber(_ printers: [Printer]) throws -> Printer {
        for (i, p) in printers.enumerated() { FileHandleStderr.write("\(i + 1)) \(describe(p))\n") }
        FileHandleStderr.write("printer number: ")
        guard let line = readLine(), let n = Int(line.trimmingCharacters(in: .whitespaces)), printers.indices.contains(n - 1) else {
            throw PrintError(.invalidOption, "--pick: no printer chosen (give a number from 1 to \(printers.count))")
        }
        return printers[n - 1]
    }

    private static func chooseInTerminal(_ printers: [Printer]) throws -> Printer {
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }

        var filter = ""
        var selected = 0
        var drawnLines = 0
        func shown() -> [Printer] {
            filter.isEmpty ? printers : printers.filter { $0.name.localizedCaseInsensitiveContains(filter) }
        }
        func draw() {
            var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r\u{1B}[J" : ""
            let list = shown()
            text += "Choose a printer (arrows, type to filter, Enter; Esc gives up): \(filter)\n"
            for (i, p) in list.enumerated() { text += (i == selected ? "\u{1B}[7m> \(describe(p))\u{1B}[0m" : "  \(describe(p))") + "\n" }
            if list.isEmpty { text += "  (no printer's name has \"\(filter)\")\n" }
            drawnLines = max(1, list.count) + 1
            FileHandleStderr.write(text)
        }
        draw()
        while true {
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { throw PrintError(.cancelled, "--pick: no printer chosen") }
            switch byte {
            case 0x0D, 0x0A:
                let list = shown()
                if list.indices.contains(selected) { return list[selected] }
            case 0x1B:
                // An arrow key is ESC [ A or ESC [ B; ESC alone gives up.
                var sequence = [UInt8](repeating: 0, count: 2)
                var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 50) == 1, read(STDIN_FILENO, &sequence, 2) == 2, sequence[0] == 0x5B else {
                    throw PrintError(.cancelled, "--pick: no printer chosen")
                }
                if sequence[1] == 0x41 { selected = max(0, selected - 1) }
                if sequence[1] == 0x42 { selected = min(max(0, shown().count - 1), selected + 1) }
            case 0x7F, 0x08:
                if !filter.isEmpty { filter.removeLast(); selected = 0 }
            case 0x03, 0x04:
                throw PrintError(.cancelled, "--pick: no printer chosen")
            case 0x20...0x7E:
                filter.append(Character(UnicodeScalar(byte)))
                selected = 0
            default:
                break
            }
            draw()
        }
    }
}
