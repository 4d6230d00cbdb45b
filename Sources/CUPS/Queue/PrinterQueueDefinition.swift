import Foundation
import PrintModel
import PrintOptions

/// A queue for a real printer. Its PPD is the one CUPS writes for the printer from the printer's
/// own attributes (`lpadmin -m everywhere`'s: papers with their printable areas, sides, colour
/// modes, qualities and resolutions), with CUPS's filter lines replaced by swiftprint's: every
/// type the swiftprint queue prints goes through the swiftprint filter straight into the format
/// the printer takes, and CUPS's own `ipp` backend carries it to the printer. No Ghostscript and
/// no cups-filters in the path.
public struct PrinterQueueDefinition {
    /// CUPS's name for the queue (`lp -d NAME`).
    public let name: String
    /// Where CUPS's `ipp` backend sends jobs.
    public let deviceURI: String
    /// What the filter writes: the printer's own document format.
    public let format: OutputFormat
    public let ppd: String
    /// The printer's make and model, as it says it.
    public let makeAndModel: String

    /// What `printer-make-and-model` ends with for a swiftprint printer queue, so that any
    /// client of the server can tell swiftprint's queues.
    public static let makeAndModelSuffix = " (swiftprint)"

    /// - Parameters:
    ///   - cupsPPD: CUPS's PPD for the printer (`PrinterAttributes.ppd`).
    ///   - documentFormats: the printer's `document-format-supported`.
    ///   - asked: the format to send (`--output-format`), or nil for the best the printer takes:
    ///     PDF, else PWG raster, else Apple raster.
    ///   - routed: the MIME types the swiftprint filter takes (`QueueDefinition.routedTypes`).
    public init(name: String, deviceURI: String, cupsPPD: String, documentFormats: [String], asked: OutputFormat?,
                routed: [String]) throws {
        try Self.checkName(name)
        let takes = { (format: OutputFormat) in documentFormats.contains(format.mimeType) }
        if let asked {
            guard takes(asked) else {
                throw PrintError(.unsupportedByPrinter, "\(asked.mimeType) asked; the printer takes \(documentFormats.joined(separator: ", "))",
                                 option: RasterOptions.outputFormat.name)
            }
            format = asked
        } else {
            guard let best = [OutputFormat.pdf, .pwgRaster, .appleRaster].first(where: takes) else {
                throw PrintError(.unsupportedByPrinter, "the printer takes none of PDF, PWG raster and Apple raster (it takes \(documentFormats.joined(separator: ", ")))")
            }
            format = best
        }
        self.name = name
        self.deviceURI = deviceURI
        var model = "printer"
        var lines: [String] = []
        for line in cupsPPD.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            // CUPS's conversions (its own, cups-filters', Ghostscript's) are what this queue replaces.
            if line.hasPrefix("*cupsFilter:") || line.hasPrefix("*cupsFilter2:") || line.hasPrefix("*cupsPreFilter:")
                || line.hasPrefix("*cupsManualCopies:") { continue }
            if line.hasPrefix("*NickName:"), let value = Self.quoted(line) {
                model = value.replacingOccurrences(of: " - IPP Everywhere", with: "")
                lines.append("*NickName: \"\(model)\(Self.makeAndModelSuffix)\"")
                continue
            }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        makeAndModel = model
        var own = [
            "*% Written by `swiftprint install --printer`: CUPS's PPD for the printer, its filter lines replaced:",
            "*% the swiftprint filter writes \(format.mimeType) and CUPS's ipp backend sends it.",
            "*% The filter makes the copies (n-up, booklets and collation are its too).",
            "*cupsManualCopies: True",
        ]
        // A PDF for a PDF printer goes through the filter too: media, n-up and copies are its.
        for type in routed {
            own.append("*cupsFilter2: \"\(type) \(format.mimeType) \(QueueDefinition.routeCost(type)) \(QueueDefinition.filterName)\"")
        }
        ppd = (lines + own + QueueDefinition.optionLines()).joined(separator: "\n") + "\n"
    }

    /// CUPS's rule for queue names: printable ASCII but space, `/`, `\`, `#`, `'` and `"`, at most
    /// 127; an error naming the queue-name setting otherwise.
    static func checkName(_ name: String) throws {
        guard !name.isEmpty, name.utf8.count <= 127,
              name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && !"/\\#'\"".unicodeScalars.contains($0) }) else {
            throw PrintError(.invalidOption, "\(name): a queue's name is 1 to 127 printable characters, without spaces, /, \\, #, ' or \"",
                             option: InstallSetting.queueName.rawValue)
        }
    }

    /// The text between the first pair of quotes of a PPD line.
    static func quoted(_ line: String) -> String? {
        guard let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"") else { return nil }
        return String(line[line.index(after: start)..<end])
    }
}
