import Foundation
import SwiftPrint
import Testing

@Suite struct PrintInfoTests {
    @Test func pageRanges() throws {
        let r = try #require(PageRanges("1-3,7,10-"))
        #expect([1, 2, 3, 7, 10, 5000].allSatisfy(r.contains))
        #expect(![4, 6, 8, 9].contains(where: r.contains))
        #expect(r.description == "1-3,7,10-")
        #expect(PageRanges("-2")?.contains(1) == true && PageRanges("-2")?.contains(3) == false)
        for bad in ["", "0", "3-1", "a", "1,,2", "-"] { #expect(PageRanges(bad) == nil, "\(bad)") }
    }

    @Test func margins() {
        #expect(EdgeInsets(cssLengths: "36") == EdgeInsets(all: 36))
        #expect(EdgeInsets(cssLengths: "36,18") == EdgeInsets(top: 36, left: 18, bottom: 36, right: 18))
        #expect(EdgeInsets(cssLengths: "1in 2in 3in 4in") == EdgeInsets(top: 72, left: 288, bottom: 216, right: 144))
        #expect(abs((EdgeInsets(cssLengths: "25.4mm")?.top ?? 0) - 72) < 1e-9)
        #expect(EdgeInsets(cssLengths: "1,2,3,4,5") == nil)
        #expect(EdgeInsets(cssLengths: "-3") == nil)
    }

    @Test func printInfoIsCodableAndEveryOptionCanBeUnset() throws {
        let info = PrintInfo(jobName: "report", orientation: .landscape, duplex: .longEdge, outputType: .grayscale,
                             copies: 2, pageRanges: PageRanges("2-4"), media: .letter)
        let data = try JSONEncoder().encode(info)
        #expect(try JSONDecoder().decode(PrintInfo.self, from: data) == info)
        let empty = try JSONDecoder().decode(PrintInfo.self, from: Data("{}".utf8))
        #expect(empty == .unset)
    }

    @Test func precedenceIsJobThenDocumentThenQueueThenLocale() {
        #expect(OptionPrecedence.resolve(job: 1, document: 2, queue: 3, locale: 4) == 1)
        #expect(OptionPrecedence.resolve(job: nil, document: 2, queue: 3, locale: 4) == 2)
        #expect(OptionPrecedence.resolve(job: nil, document: nil, queue: 3, locale: 4) == 3)
        #expect(OptionPrecedence.resolve(job: Int?.none, document: nil, queue: nil, locale: 4) == 4)
    }

    /// A photo asks the printer for one side, whatever its default (a duplex-default printer
    /// would print photos back to back); asked sides win, and other jobs leave sides to it.
    @Test func aPhotoAsksForOneSide() {
        func sides(_ info: PrintInfo) -> String? { PrinterDelivery.jobOptions(info: info, paper: nil).first { $0.0 == "sides" }?.1 }
        var info = PrintInfo()
        #expect(sides(info) == nil)
        info.outputType = .photo
        #expect(sides(info) == "one-sided")
        info.outputType = .photoGrayscale
        #expect(sides(info) == "one-sided")
        info.duplex = .longEdge
        #expect(sides(info) == "two-sided-long-edge")
    }
}

/// A setting added in one place cannot be lost in another: every declared option is followed
/// through a preset, through `overriding` and through `SheetOptions.isNeutral`.
@Suite struct SettingsCarriedEverywhereTests {
    /// Settings with every declared option that sets the print info set to its example (the
    /// second of two that set one field wins); `JobSettings()` otherwise.
    static func everyOptionSet() throws -> JobSettings {
        var settings = JobSettings()
        for option in JobSettings.declaredOptions {
            try settings.apply(name: option.name, value: option.example, from: .commandLine.union(.printJob))
        }
        return settings
    }

    @Test func everySettingOfThePrintInfoSurvivesAPreset() throws {
        var info = try Self.everyOptionSet().info
        // The two that no option sets: the job's name (argv, `-t`) and the chosen printer.
        info.jobName = "report"
        info.printerID = "Lobby"
        // Every field is set, or this test would not see a new one dropped.
        for child in Mirror(reflecting: info).children {
            let value = child.value
            #expect(!("\(value)" == "nil"), "\(child.label ?? "?") is set by no declared option: set it here")
        }
        let back = try JSONDecoder().decode(PrintInfo.self, from: info.presetData())
        #expect(back == info)
        #expect(try JSONDecoder().decode(PrintInfo.self, from: Data("{}".utf8)) == .unset)
    }

    @Test func overridingTakesEachUnsetSettingFromTheBase() throws {
        var base = try Self.everyOptionSet().info
        base.jobName = "report"
        base.printerID = "Lobby"
        #expect(PrintInfo().overriding(base) == base)
        #expect(base.overriding(PrintInfo()) == base)
        var mine = PrintInfo(copies: 3)
        mine.sheets.numberUp = 2
        mine.printerResolution = PrinterResolution(text: "600")
        var expected = base
        expected.copies = 3
        expected.sheets.numberUp = 2
        expected.printerResolution = PrinterResolution(text: "600")
        #expect(mine.overriding(base) == expected)
    }

    /// Each option that sets how pages go onto sheets makes the sheet options not neutral with
    /// its example, but for those that act only beside another.
    @Test func everySheetOptionIsWeighedByIsNeutral() throws {
        let besideAnother: Set<String> = ["number-up-layout", "booklet-signature", "collate", "multiple-document-handling", "swiftprint-gutter"]
        var seen = 0
        for option in JobSettings.declaredOptions {
            var settings = JobSettings()
            try settings.apply(name: option.name, value: option.example, from: .commandLine.union(.printJob))
            guard settings.info.sheets != SheetOptions() else { continue }
            seen += 1
            #expect(settings.info.sheets.isNeutral == besideAnother.contains(option.name), "\(option.name)=\(option.example)")
        }
        #expect(seen >= 10, "\(seen) sheet options")
    }
}
