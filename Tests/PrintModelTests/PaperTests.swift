import Foundation
import SwiftPrint
import TestSupport
import Testing

@Suite struct PaperTests {
    @Test(arguments: [
        ("A4", 595.276, 841.890), ("letter", 612.0, 792.0), ("A5", 419.528, 595.276),
        ("iso_a5_148x210mm", 419.528, 595.276), ("legal", 612.0, 1008.0), ("4x6", 288.0, 432.0),
        ("Env10", 297.0, 684.0), ("210x297mm", 595.276, 841.890), ("8.5x11in", 612.0, 792.0),
    ])
    func namedSizes(name: String, width: Double, height: Double) throws {
        let media = try #require(MediaSize.named(name))
        #expect(abs(media.size.width - width) < 0.01)
        #expect(abs(media.size.height - height) < 0.01)
    }

    @Test func unknownNamesAreRejected() {
        #expect(MediaSize.named("A44") == nil)
        #expect(MediaSize.named("0x10mm") == nil)
    }

    /// Custom sizes carry a name a printer reads (CUPS's form, in millimetres), whatever
    /// they were written in, and a receipt shorter than its roll is wide stays that way round.
    @Test func customSizesAreNamedAsCUPSNamesThem() throws {
        #expect(try #require(MediaSize.named("8.5x11in")).pwgName == "custom_215.9x279.4mm_215.9x279.4mm")
        #expect(MediaSize.custom(points: CGSize(width: 612, height: 792)).pwgName == "custom_215.9x279.4mm_215.9x279.4mm")
        let receipt = MediaSize.custom(width: 80 * 72 / 25.4, length: 120)
        #expect(receipt.pwgName == "custom_80x42.33mm_80x42.33mm" && receipt.size.width > receipt.size.height)
        let again = try #require(MediaSize.named(receipt.pwgName))
        #expect(abs(again.size.height - 120) < 0.02, "the name reads back as the size")
    }

    /// What a roll printer cuts, from its media-supported names; lengths held within it.
    @Test func rollAndCustomRangesComeFromMediaNames() throws {
        let names = ["om_receipt_80x200mm", "roll_min_58x25mm", "roll_max_80x600mm", "custom_min_3x5in", "custom_max_8.5x14in"]
        let roll = try #require(MediaSizeRange(mediaNames: names, prefix: "roll"))
        #expect(abs(roll.minimum.width - 58 * 72 / 25.4) < 0.01 && abs(roll.maximum.height - 600 * 72 / 25.4) < 0.01)
        #expect(roll.clampedLength(10) == roll.minimum.height && roll.clampedLength(1e6) == roll.maximum.height)
        #expect(roll.contains(CGSize(width: 80 * 72 / 25.4, height: 120)) && !roll.contains(CGSize(width: 612, height: 792)))
        let custom = try #require(MediaSizeRange(mediaNames: names, prefix: "custom"))
        #expect(custom.maximum == CGSize(width: 612, height: 1008))
        #expect(MediaSizeRange(mediaNames: ["roll_max_80x600mm"], prefix: "roll") == nil, "both corners are needed")
        // A CUPS queue names its roll as custom sizes: in range is fine, beyond it is a problem.
        let queue = PrinterCapabilities(media: ["custom_80x200mm_80x200mm", "custom_min_58x25mm", "custom_max_80x600mm"])
        #expect(queue.problems(with: [("media", "custom_80x42.33mm_80x42.33mm")], printer: "Till").isEmpty)
        #expect(queue.problems(with: [("media", "custom_80x700mm_80x700mm")], printer: "Till")
            == ["media custom_80x700mm_80x700mm asked; Till takes sizes from 58x25mm to 80x600mm"])
        #expect(!queue.isRollFed && PrinterCapabilities(media: names).isRollFed)
    }

    @Test func landscapeSwapsTheSidesAndMarginsMakeThePrintableRect() {
        let paper = PrintPaper(media: MediaSize.named("A5")!, orientation: .landscape, margins: EdgeInsets(top: 10, left: 20, bottom: 30, right: 40))
        #expect(abs(paper.paperSize.width - 595.276) < 0.01)
        #expect(abs(paper.paperSize.height - 419.528) < 0.01)
        #expect(paper.printableRect.minX == 20 && paper.printableRect.minY == 10)
        #expect(abs(paper.printableRect.width - (595.276 - 60)) < 0.01)
        #expect(abs(paper.printableRect.height - (419.528 - 40)) < 0.01)
    }

    @Test func localeDecidesTheDefault() {
        let none = "/nonexistent"
        #expect(PaperDefaults.media(for: .general, environment: ["LANG": "en_US.UTF-8"], paperSizeFile: none) == .letter)
        #expect(PaperDefaults.media(for: .general, environment: ["LANG": "es_MX.UTF-8"], paperSizeFile: none) == .letter)
        #expect(PaperDefaults.media(for: .general, environment: ["LANG": "de_DE.UTF-8"], paperSizeFile: none) == .a4)
        #expect(PaperDefaults.media(for: .general, environment: [:], paperSizeFile: none) == .a4)
        #expect(PaperDefaults.media(for: .general, environment: ["LANG": "de_DE.UTF-8", "LC_PAPER": "en_CA.UTF-8"], paperSizeFile: none) == .letter)
        #expect(PaperDefaults.media(for: .photo, environment: ["LANG": "en_US.UTF-8"], paperSizeFile: none) == .photo4x6)
        #expect(PaperDefaults.media(for: .photo, environment: ["LANG": "fr_FR.UTF-8"], paperSizeFile: none) == .a6)
        #expect(PaperDefaults.media(for: .general, environment: ["PAPERSIZE": "legal"], paperSizeFile: none) == MediaSize.named("legal"))
    }

    @Test func etcPapersizeComesAfterLCPaperAndBeforeLang() throws {
        let dir = try temporaryDirectory()
        let file = dir + "/papersize"
        try "letter\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(PaperDefaults.media(for: .general, environment: ["LANG": "de_DE.UTF-8"], paperSizeFile: file) == .letter)
        #expect(PaperDefaults.media(for: .general, environment: ["LC_PAPER": "de_DE.UTF-8"], paperSizeFile: file) == .a4)
    }

    @Test func bestPaperIsTheSmallestThatFits() {
        let papers = ["A4", "letter", "A5", "4x6"].map { PrintPaper(media: MediaSize.named($0)!) }
        #expect(PrintPaper.best(for: CGSize(width: 400, height: 580), from: papers)?.media == MediaSize.named("A5"))
        #expect(PrintPaper.best(for: CGSize(width: 600, height: 780), from: papers)?.media == MediaSize.named("letter"))
        #expect(PrintPaper.best(for: CGSize(width: 580, height: 400), from: papers)?.media == MediaSize.named("A5"))
        // Nothing fits: the one needing the least shrinking.
        #expect(PrintPaper.best(for: CGSize(width: 2000, height: 2000), from: papers)?.media == MediaSize.named("letter"))
        // A printer's margins do not send a page to bigger paper than its own size.
        let printerPapers = ["legal", "A4", "letter"].map { PrintPaper(media: MediaSize.named($0)!, margins: EdgeInsets(all: 18)) }
        #expect(PrintPaper.best(for: MediaSize.a4.size, from: printerPapers)?.media == .a4)
    }

    @Test func aPrinterLeavesItsMarginsBlankAndPrintsPhotosBorderlessWhereItCan() {
        var margins = PrinterMargins()
        margins.add(media: "iso_a4_210x297mm", edges: EdgeInsets(top: 3, left: 10, bottom: 33, right: 10))
        margins.add(media: "iso_a4_210x297mm", edges: EdgeInsets(top: 5, left: 8, bottom: 40, right: 12))
        margins.add(media: "na_index-4x6_4x6in", edges: .zero)
        margins.add(media: "na_index-4x6_4x6in", edges: EdgeInsets(all: 9))
        #expect(margins.edges(for: "iso_a4_210x297mm", borderless: false) == EdgeInsets(top: 3, left: 8, bottom: 33, right: 10))
        #expect(margins.edges(for: "iso_a4_210x297mm", borderless: true) == EdgeInsets(top: 3, left: 8, bottom: 33, right: 10),
                "no borderless A4 on this printer")
        #expect(margins.edges(for: "na_index-4x6_4x6in", borderless: true) == .zero)
        #expect(margins.edges(for: "na_index-4x6_4x6in", borderless: false) == EdgeInsets(all: 9))
        // A paper it does not list gets the largest margins it gives any.
        #expect(margins.edges(for: "iso_a5_148x210mm", borderless: false) == EdgeInsets(top: 9, left: 9, bottom: 33, right: 10))

        var settings = JobSettings()
        settings.printerMargins = margins
        settings.info.media = .a4
        #expect(settings.paper().margins == EdgeInsets(top: 39, left: 44, bottom: 69, right: 46), "36 pt inside what the printer leaves")
        settings.info.outputType = .photo
        settings.info.media = MediaSize.named("4x6")
        #expect(settings.paper().margins == .zero, "a photo prints borderless where the printer can")
    }
}

/// An installation without its paper catalogue says so at every door, instead of stopping the
/// program (it did, with fatalError, from inside the library).
@Suite struct InstallationDataTests {
    @Test func aMissingPaperCatalogueIsAnErrorNamingTheSetting() {
        let empty = MediaCatalogue(papers: nil)
        #expect(empty.all.isEmpty && empty.media(named: "A4") == nil)
        let error = empty.dataError
        #expect(error?.code == .notAvailable && error?.message.contains("Config/papers.tsv is missing") == true
                && error?.message.contains("SWIFTPRINT_CONFIG_DIR") == true, "\(String(describing: error))")
        #expect(MediaCatalogue.shared.dataError == nil && MediaCatalogue.shared.media(named: "A4") != nil)
        #expect(MediaCatalogue(papers: "iso_a4_210x297mm\t210\t297\tA4\tA4\tiso\n").media(named: "a4") != nil)
    }
}
