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

    /// These settings over `base`: what is set here wins, what is unset here comes from `base`
    /// (the sheet options one by one). Read from the settings' coding, so that a setting added
    /// to `PrintInfo` or `SheetOptions` is carried like the others.
    public func overriding(_ base: PrintInfo) -> PrintInfo {
        var merged = Self.fields(of: base)
        for (key, value) in Self.fields(of: self) {
            if key == "sheets", let mine = value as? [String: Any], let theirs = merged[key] as? [String: Any] {
                merged[key] = theirs.merging(mine) { $1 }
            } else {
                merged[key] = value
            }
        }
        // Both are settings this type wrote a moment ago: reading them back cannot fail.
        return try! JSONDecoder().decode(PrintInfo.self, from: JSONSerialization.data(withJSONObject: merged))
    }

    /// The settings that are set, by their coding keys (unset ones are left out).
    private static func fields(of info: PrintInfo) -> [String: Any] {
        // Safe: PrintInfo's coding writes an object of plain values; it cannot fail.
        try! JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as! [String: Any]
    }
}

extension SheetOptions {
    /// These options over `base`, each unset one taken from `base`.
    public func overriding(_ base: SheetOptions) -> SheetOptions {
        var info = PrintInfo(), baseInfo = PrintInfo()
        info.sheets = self
        baseInfo.sheets = base
        return info.overriding(baseInfo).sheets
    }
}
