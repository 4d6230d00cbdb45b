import PrintGraphics
import PrintModel
import PrintOptions
import Testing

/// The limits' declarations: one each, in one group, each with its flag; and who may change them.
/// (CLITests' LimitTests crosses each through the real binary.)
@Suite struct JobLimitsTests {
    @Test func everyLimitIsDeclaredOnceWithItsFlag() {
        let names = LimitOptions.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(ImageLimits.pixelOption == LimitOptions.maxPixels.name && ImageLimits.pageOption == LimitOptions.maxPages.name)
        let flags = Set(JobSettings.optionGroups.first { $0.title == "Limits" }?.options.map(\.commandLineName) ?? [])
        #expect(flags == ["max-pixels", "max-pages", "max-input-size", "map-max-points", "map-max-tiles", "map-max-sheets",
                          "max-nesting", "helper-timeout", "helper-memory", "converter-timeout", "markup-timeout"], "\(flags)")
    }

    /// A print job (`lp -o`, a phone) may lower a limit, never raise it; the command line may.
    @Test func aPrintJobMayLowerALimitButNotRaiseIt() throws {
        let lowered = try JobSettings(parsing: [("swiftprint-max-pages", "10")], from: .printJob)
        #expect(lowered.limits.pagesPerDocument == 10)
        #expect(throws: PrintError.self) { try JobSettings(parsing: [("swiftprint-max-pixels", "900000000")], from: .printJob) }
        #expect(throws: PrintError.self) { try JobSettings(parsing: [("swiftprint-helper-memory", "100000")], from: .printJob) }
        let raised = try JobSettings(parsing: [("swiftprint-max-pixels", "900000000")], from: .commandLine)
        #expect(raised.limits.pixelsPerImage == 900_000_000)
    }
}
