import Foundation
@testable import swiftprint
import SwiftPrint
import TestSupport
import Testing

/// Every declared option reaches each place its declaration names, with the same meaning, and no
/// other: the CLI's flags (parsed here as `swiftprint convert` parses them), a print job's
/// `lp -o` options, and the helpers' JSON. (The PPD's part is in CUPSTests.)
@Suite struct OptionDeclarationTests {
    static let declared = JobSettings.declaredOptions

    /// The flag that gives `option` its example value.
    static func arguments(for option: any DeclaredOption) -> [String] {
        switch option.commandLineForm {
        case .option: ["--\(option.commandLineName)", option.example]
        case .flag: ["--\(option.commandLineName)"]
        case .invertedFlag: ["--no-\(option.commandLineName)"]
        }
    }

    static func fromCommandLine(_ arguments: [String]) throws -> JobSettings {
        try JobFlags.parse(arguments).settings()
    }

    @Test(arguments: declared.filter { $0.sources.contains(.commandLine) }.map(\.name))
    func aFlagMeansWhatItsDeclarationSays(name: String) throws {
        let option = try #require(JobSettings.option(named: name))
        let flagged = try Self.fromCommandLine(Self.arguments(for: option))
        let declared = try JobSettings(parsing: [(option.name, option.example)], from: .commandLine)
        #expect(flagged == declared)
        #expect(flagged != JobSettings(), "the example changes nothing")
        if option.sources.contains(.printJob) {
            // The same words in a print job, under every name the option answers to.
            for alias in [option.name] + option.aliases {
                #expect(try JobSettings(parsing: [(alias, option.example)], from: .printJob) == flagged, "\(alias)")
            }
        }
    }

    @Test(arguments: declared.filter { !$0.sources.contains(.printJob) }.map(\.name))
    func anOptionAPrintJobMayNotSetIsRefused(name: String) throws {
        let option = try #require(JobSettings.option(named: name))
        #expect(throws: PrintError.self) { try JobSettings(parsing: [(option.name, option.example)], from: .printJob) }
    }

    @Test(arguments: declared.filter { !$0.sources.contains(.commandLine) }.map(\.name))
    func anOptionOnlyCUPSTakesIsNoFlag(name: String) throws {
        let option = try #require(JobSettings.option(named: name))
        #expect(throws: (any Error).self) { try Self.fromCommandLine(["--\(option.commandLineName)", option.example]) }
        let job = try JobSettings(parsing: [(option.name, option.example)], from: .printJob)
        #expect(job != JobSettings(), "the example changes nothing")
    }

    @Test func everyJobFlagIsDeclared() throws {
        let r = try swiftprint(["convert", "--experimental-dump-help"])
        #expect(r.status == 0, "\(r.stderr)")
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable { var names: [Name]?; var sectionTitle: String? }
            struct Name: Decodable { var name: String; var kind: String }
            var command: Command
        }
        let dump = try JSONDecoder().decode(Dump.self, from: r.stdout)
        // The command's own flags, not options of a job.
        let ownFlags: Set = ["output", "o", "quiet", "q", "verbose", "v", "preset", "save-preset", "help", "h", "version"]
        let names: [Dump.Name] = (dump.command.arguments ?? []).flatMap { $0.names ?? [] }
        let flags = Set(names.filter { $0.kind != "short" }.map(\.name)).subtracting(ownFlags)
        var declaredFlags: Set<String> = []
        for option in Self.declared where option.sources.contains(.commandLine) {
            declaredFlags.insert(option.commandLineName)
            if option.commandLineForm == .invertedFlag { declaredFlags.insert("no-" + option.commandLineName) }
        }
        #expect(flags == declaredFlags, "undeclared: \(flags.subtracting(declaredFlags)); missing: \(declaredFlags.subtracting(flags))")
    }

    @Test func everyNameAnswersOneOptionOnly() {
        var seen: [String: String] = [:]
        for option in Self.declared {
            for name in [option.name] + option.aliases {
                #expect(seen[name.lowercased()] == nil, "\(name): \(option.name) and \(seen[name.lowercased()] ?? "")")
                seen[name.lowercased()] = option.name
            }
        }
    }

    /// The helpers get the settings as JSON: every option survives the trip.
    @Test func everyOptionReachesAHelperUnchanged() throws {
        var settings = JobSettings()
        for option in Self.declared { try option.apply(text: option.example, to: &settings) }
        settings.localFiles = .none
        let decoded = try JSONDecoder().decode(JobSettings.self, from: JSONEncoder().encode(settings))
        #expect(decoded == settings)
    }

    @Test func aBadValueNamesTheOptionAndWhatItTakes() {
        #expect { try JobSettings(parsing: [("number-up", "5")], from: .printJob) } throws: {
            "\($0)".contains("number-up \"5\" is not valid (1, 2, 3, 4, 6, 8, 9, 10, 12, 15, 16)")
        }
        #expect { try Self.fromCommandLine(["--copies", "0"]) } throws: { "\($0)".contains("--copies \"0\" is not valid (1 to 999)") }
    }
}
