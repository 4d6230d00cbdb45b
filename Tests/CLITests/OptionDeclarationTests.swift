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

    /// The settings `swiftprint convert doc.txt ARGUMENTS` would print with.
    static func fromCommandLine(_ arguments: [String]) throws -> JobSettings {
        try JobFlags.parse(["doc.txt"] + arguments).settings()
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

    /// `--help` lists every option the command line takes, from its declaration, and only those.
    /// The keywords completion offers and the manual lists are values the option takes.
    @Test(arguments: declared.filter { !$0.keywords.isEmpty }.map(\.name))
    func everyKeywordIsAValueTheOptionTakes(name: String) throws {
        let option = try #require(JobSettings.option(named: name))
        for keyword in option.keywords {
            var settings = JobSettings()
            #expect(throws: Never.self, "\(keyword)") { try option.apply(commandLineText: keyword, to: &settings) }
        }
    }

    /// Every option says its default, so the manual can: a value fresh settings hold (given, it
    /// changes nothing), or, for an option fresh settings leave unset, what happens then.
    @Test(arguments: declared.map(\.name))
    func everyOptionSaysItsDefault(name: String) throws {
        let option = try #require(JobSettings.option(named: name))
        switch option.defaultValue {
        case .value(let text)?: #expect(option.leavesFreshSettings(text), "\(name)'s default \(text) changes fresh settings")
        case .unset(let what)?:
            #expect(!what.isEmpty)
            #expect(!option.leavesFreshSettings(option.example), "\(name)'s example changes nothing")
            for keyword in option.keywords { #expect(!option.leavesFreshSettings(keyword), "\(name) \(keyword) is its default: say .value") }
        case nil: Issue.record("\(name) says no default")
        }
    }

    @Test func theHelpListsEveryDeclaredFlag() throws {
        let r = try swiftprint(["convert", "--help"])
        #expect(r.status == 0, "\(r.stderr)")
        let listed = Set(r.text.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^  --(?:\[no-\])?([a-z0-9-]+)/).map { String($0.1) }
        })
        let commandsOwn: Set = ["output", "force", "quiet", "verbose", "preset", "save-preset", "help", "version"]
        let declared = Set(Self.declared.filter { $0.sources.contains(.commandLine) }.map(\.commandLineName))
        #expect(listed.subtracting(commandsOwn) == declared,
                "undeclared: \(listed.subtracting(commandsOwn).subtracting(declared)); missing: \(declared.subtracting(listed))")
        for option in Self.declared where option.sources.contains(.commandLine) {
            #expect(r.text.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
                        .contains(option.help.split(separator: " ").prefix(4).joined(separator: " ")), "\(option.name)'s help")
        }
    }

    @Test func documentsAndOptionsMayComeInAnyOrder() throws {
        let flags = try JobFlags.parse(["a.txt", "--media=A5", "b.txt", "--no-wrap", "--", "--c.txt"])
        #expect(flags.inputs == ["a.txt", "b.txt", "--c.txt"])
        let settings = try flags.settings()
        #expect(settings.info.media == MediaSize.named("A5") && settings.text.wrap == false)
        #expect(throws: (any Error).self) { try JobFlags.parse(["a.txt", "--bogus"]).settings() }
        #expect(throws: (any Error).self) { try JobFlags.parse(["a.txt", "--media"]).settings() }
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
