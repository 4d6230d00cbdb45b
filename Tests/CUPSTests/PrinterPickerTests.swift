import Foundation
import SwiftPrint
import TestSupport
import Testing

/// The printer picker: `print --pick` by number (no terminal) and with the keys (a terminal
/// made by `script`), the choice remembered under XDG_CONFIG_HOME; the library's
/// `PrinterPicker` filtering by what a job needs; `contactPrinter`.
extension PrinterTests {
    func printerOfJob(_ stdout: String, _ s: Setup) throws -> String? {
        let id = Int(stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        return try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).first { $0.id == id }?.printer
    }

    @Test func pickByNumberRemembersTheChoice() throws {
        let s = try Setup.shared()
        let env = ["CUPS_SERVER": s.cups.server, "XDG_CONFIG_HOME": try temporaryDirectory()]
        let file = try threePages()
        // Two sides: Lobby prints one, so Office alone is offered.
        let twoSided = try Tool.run(Tool.swiftprint, ["print", "--pick", "--no-wait", "--sides", "two-sided-long-edge", file],
                                    stdin: Data("1\n".utf8), environment: env)
        #expect(twoSided.status == 0, "\(twoSided.stderr)")
        #expect(twoSided.stderr.contains("1) Office") && !twoSided.stderr.contains("Lobby"), "\(twoSided.stderr)")
        #expect(try printerOfJob(twoSided.text, s) == "Office")

        // Every printer: the last choice first, then the others by name.
        let second = try Tool.run(Tool.swiftprint, ["print", "--pick", "--no-wait", file], stdin: Data("2\n".utf8), environment: env)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("1) Office") && second.stderr.contains("2) Lobby"), "\(second.stderr)")
        #expect(try printerOfJob(second.text, s) == "Lobby")
        let third = try Tool.run(Tool.swiftprint, ["print", "--pick", "--no-wait", file], stdin: Data("1\n".utf8), environment: env)
        #expect(third.stderr.contains("1) Lobby"), "the choice is remembered: \(third.stderr)")
        #expect(try printerOfJob(third.text, s) == "Lobby")

        let wrong = try Tool.run(Tool.swiftprint, ["print", "--pick", "--no-wait", file], stdin: Data("9\n".utf8), environment: env)
        #expect(wrong.status == 64 && wrong.stderr.contains("give a number from 1 to"), "\(wrong.stderr)")
        let both = try Tool.run(Tool.swiftprint, ["print", "--pick", "-d", "Office", file], environment: env)
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    /// On a terminal: typing filters the list, Enter chooses.
    @Test func pickOnATerminalFiltersAsYouType() throws {
        let s = try Setup.shared()
        let env = ["CUPS_SERVER": s.cups.server, "XDG_CONFIG_HOME": try temporaryDirectory()]
        let command = "'\(Tool.swiftprint)' print --pick --no-wait '\(try threePages())'"
        let r = try Tool.run("script", ["-qec", command, "/dev/null"], stdin: Data("lob\r".utf8), environment: env)
        let screen = r.text
        #expect(r.status == 0, "\(screen) \(r.stderr)")
        #expect(screen.contains("Choose a printer"), "\(screen)")
        let id = screen.split(whereSeparator: \.isNewline).last.map { String($0) } ?? ""
        #expect(try printerOfJob(id, s) == "Lobby", "\(screen)")
        // The last choice, Lobby, leads the list now: the down arrow moves to the next one.
        let order = try Tool.run(Tool.swiftprint, ["print", "--pick", "--no-wait", "/dev/null"], stdin: Data("x\n".utf8), environment: env)
        #expect(order.stderr.contains("1) Lobby"), "\(order.stderr)")
        let listed = try #require(order.stderr.firstMatch(of: /2\) (\S+)/).map { String($0.1) })
        let arrow = try Tool.run("script", ["-qec", command, "/dev/null"], stdin: Data("\u{1B}[B\r".utf8), environment: env)
        let next = arrow.text.split(whereSeparator: \.isNewline).last.map { String($0) } ?? ""
        #expect(try printerOfJob(next, s) == listed, "\(arrow.text)")
    }

    @Test func thePickerOffersWhatAJobNeedsAndAsksThePrinter() async throws {
        let s = try Setup.shared()
        setenv("CUPS_SERVER", s.cups.server, 1)
        setenv("XDG_CONFIG_HOME", try temporaryDirectory(), 1)
        let colour = try await PrinterPicker(appID: "test", requirements: PrinterRequirements(color: true)).printers().map(\.name)
        #expect(colour.contains("Lobby") && !colour.contains("Office"), "Office prints in monochrome: \(colour)")
        let picker = PrinterPicker(appID: "test")
        try picker.remember("Lobby")
        #expect(picker.lastChoice == "Lobby")
        #expect(try await picker.printers().first?.name == "Lobby")
        #expect(PrinterPicker(appID: "another").lastChoice == nil, "one choice per app")
        let office = try #require(try await picker.printers().first { $0.name == "Office" })
        #expect(await office.contactPrinter())
    }
}
