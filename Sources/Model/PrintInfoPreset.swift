import Foundation

/// Presets: a `PrintInfo` saved as JSON and read back, like UIPrintInfo's
/// dictionaryRepresentation, the chosen printer (`printerID`) included.
extension PrintInfo {
    /// The print info saved in the preset at `path`.
    public init(presetAt path: String) throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw PrintError(.inputUnreadable, path: path, "cannot read the preset: \((error as NSError).localizedDescription)")
        }
        do { self = try JSONDecoder().decode(PrintInfo.self, from: data) } catch let DecodingError.dataCorrupted(context) {
            throw PrintError(.invalidInput, path: path, "the preset is not valid JSON: \(context.debugDescription)")
        } catch {
            throw PrintError(.invalidInput, path: path, "the preset does not describe print settings: \(error)")
        }
    }

    /// JSON for a preset: keys sorted, unset settings left out.
    public func presetData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// These settings over `base`: what is set here wins, what is unset here comes from `base`.
    public func overriding(_ base: PrintInfo) -> PrintInfo {
        var r = self
        r.jobName = jobName ?? base.jobName
        r.orientation = orientation ?? base.orientation
        r.duplex = duplex ?? base.duplex
        r.outputType = outputType ?? base.outputType
        r.copies = copies ?? base.copies
        r.pageRanges = pageRanges ?? base.pageRanges
        r.media = media ?? base.media
        r.printerID = printerID ?? base.printerID
        r.sheets = sheets.overriding(base.sheets)
        return r
    }
}

extension SheetOptions {
    /// These options over `base`, each unset one taken from `base`.
    public func overriding(_ base: SheetOptions) -> SheetOptions {
        var r = self
        r.numberUp = numberUp ?? base.numberUp
        r.layout = layout ?? base.layout
        r.border = border ?? base.border
        r.pageSet = pageSet ?? base.pageSet
        r.reverse = reverse ?? base.reverse
        r.booklet = booklet ?? base.booklet
        r.bookletSignature = bookletSignature ?? base.bookletSignature
        r.mirror = mirror ?? base.mirror
        r.halfTurn = halfTurn ?? base.halfTurn
        r.collate = collate ?? base.collate
        return r
    }
}
