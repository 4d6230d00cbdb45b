@testable import CUPSClient
import Testing

/// CUPS's `marker-*` lists read into supplies, without a cupsd: IPP's special levels, lists of
/// unequal length, and the printer's own thresholds for low and nearly full.
@Suite struct PrinterSupplyTests {
    @Test func specialLevelsAreUnknownOrSomeRemaining() {
        let supplies = PrinterSupply.fromMarkers(names: ["A", "B", "C", "D"], types: [], colors: [], levels: [-1, -2, -3, 101],
                                                 lowLevels: [], highLevels: [])
        #expect(supplies.map(\.level) == [nil, nil, nil, nil])
        #expect(supplies.map(\.someRemaining) == [false, false, true, false])
        #expect(supplies.allSatisfy { $0.attention == nil })
    }

    /// A list shorter than the names leaves the rest unsaid, never shifted onto another supply.
    @Test func aShortListLeavesTheRestUnsaid() {
        let supplies = PrinterSupply.fromMarkers(names: ["Black", "Cyan"], types: ["toner"], colors: ["#000000"], levels: [50],
                                                 lowLevels: [], highLevels: [])
        #expect(supplies.map(\.level) == [50, nil])
        #expect(supplies.map(\.type) == ["toner", nil] && supplies.map(\.color) == ["#000000", nil])
    }

    @Test func theThresholdsAreThePrintersOwn() {
        let supplies = PrinterSupply.fromMarkers(
            names: ["at low", "above low", "empty", "waste at high", "waste below", "waste, no high level"],
            types: ["toner", "toner", "toner", "waste-toner", "waste-toner", "waste-ink"], colors: [],
            levels: [15, 16, 0, 90, 89, 100], lowLevels: [15, 15, -1, 0, 0, 0], highLevels: [100, 100, 100, 90, 90, -1])
        #expect(supplies.map(\.attention) == [.low, nil, .low, .nearlyFull, nil, nil])
        #expect(supplies.map(\.isReceptacle) == [false, false, false, true, true, true])
    }
}
