import Foundation
import PrintModel
import PrintOptions

/// The files that make the `swiftprint` queue: its PPD, whose `*cupsFilter2` lines send every
/// type swiftprint prints through the swiftprint filter (so only this queue changes), and a
/// `swiftprint.types` for the types stock CUPS does not know. Both are built from the handler
/// registry: a new handler's types join the queue without changes here.
public struct QueueDefinition {
    /// The type the filter writes and the backend reads: PDF, named for this queue alone so
    /// that no other filter chain can end in it.
    public static let outputType = "application/vnd.swiftprint-pdf"
    public static let filterName = "swiftprint"

    /// MIME types routed through the filter, sorted.
    public let routedTypes: [String]
    /// Printable types (UTIs) left out: cupsd recognises none of their MIME types, neither
    /// from stock CUPS nor from Config/cups/swiftprint.types, so it could not accept such files.
    public let unroutableTypes: [String]
    /// The `swiftprint.types` file: rules for the routed types cupsd lacks.
    public let typesFile: String
    /// The queue's PPD.
    public let ppd: String

    /// - Parameters:
    ///   - printable: every type some handler prints (by conformance too), with its MIME types.
    ///   - cupsTypes: the MIME types cupsd already knows (from its *.types files).
    ///   - rules: lines of Config/cups/swiftprint.types (type, then its rules).
    ///   - defaultMedia: the queue's default paper (the locale's at install time).
    public init(printable: [(uti: String, mimeTypes: [String])], cupsTypes: Set<String>, rules: String, defaultMedia: MediaSize) {
        var ruleFor: [String: String] = [:]
        for line in rules.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: true)
            if parts.count == 2 { ruleFor[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        var routed = Set<String>(), unroutable: [String] = [], added: [String] = []
        for (uti, mimeTypes) in printable {
            var any = false
            for type in mimeTypes {
                if cupsTypes.contains(type) {
                    routed.insert(type); any = true
                } else if let rule = ruleFor[type] {
                    if routed.insert(type).inserted { added.append("\(type)\t\t\(rule)") }
                    any = true
                }
            }
            if !any, !mimeTypes.isEmpty { unroutable.append(uti) }
        }
        added.sort()
        routedTypes = routed.sorted()
        unroutableTypes = unroutable
        typesFile = """
        # Written by `swiftprint install` from swiftprint's handler registry; `swiftprint uninstall`
        # removes it. Types stock CUPS lacks that the swiftprint queue prints.
        \(Self.outputType)
        \(added.joined(separator: "\n"))

        """
        ppd = Self.makePPD(routed: routedTypes, defaultMedia: defaultMedia)
    }

    /// The MIME types cupsd declares in the `*.types` files of `folders` (`file` skipped).
    public static func cupsTypes(in folders: [String], skipping file: String = "swiftprint.types") -> Set<String> {
        var types = Set<String>()
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names where name.hasSuffix(".types") && name != file {
                guard let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n") {
                    guard let first = line.first, !first.isWhitespace, first != "#" else { continue }
                    if let type = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, type.contains("/") {
                        types.insert(type.lowercased())
                    }
                }
            }
        }
        return types
    }

    /// What cupsd counts for swiftprint's route from `type` (a `*cupsFilter2` line's cost):
    /// 0, and 1 for PDF. cupsd takes the cheapest chain of filters to the queue, and
    /// cups-filters (installed with Debian's cups) turns Apple raster and PostScript into PDF at
    /// cost 0: with PDF's route at 0 too, the chain through its rastertopdf tied with
    /// swiftprint's own Apple raster route and cupsd could take it. At 1 swiftprint's own route
    /// is the cheapest for every type it prints, and no other converter runs for its queues.
    static func routeCost(_ type: String) -> Int { type == "application/pdf" ? 1 : 0 }

    static func makePPD(routed: [String], defaultMedia: MediaSize) -> String {
        var lines = [
            "*PPD-Adobe: \"4.3\"",
            "*% The swiftprint queue: every job is saved as a PDF in /var/spool/swiftprint/USER/.",
            "*% Written by `swiftprint install`; each *cupsFilter2 line routes a type through swiftprint.",
            "*FormatVersion: \"4.3\"",
            "*FileVersion: \"1.0\"",
            "*LanguageVersion: English",
            "*LanguageEncoding: ISOLatin1",
            "*PCFileName: \"SWIFTPRT.PPD\"",
            "*Manufacturer: \"swiftprint\"",
            "*Product: \"(swiftprint)\"",
            "*ModelName: \"swiftprint PDF\"",
            "*ShortNickName: \"swiftprint PDF\"",
            "*NickName: \"swiftprint: save as PDF\"",
            "*PSVersion: \"(3010.000) 0\"",
            "*LanguageLevel: \"3\"",
            "*ColorDevice: True",
            "*DefaultColorSpace: RGB",
            "*FileSystem: False",
            "*Throughput: \"100\"",
            "*LandscapeOrientation: Plus90",
            "*TTRasterizer: Type42",
            "*% The filter makes the copies; the backend saves what it gets once.",
            "*cupsManualCopies: True",
            "*% One backend run per document: a job of several documents gives one PDF each.",
            "*cupsSingleFile: True",
            "*% The resolutions of the raster it reads: shared, cupsd offers them to AirPrint (URF's RS).",
            "*OpenUI *Resolution/Resolution of raster it reads: PickOne",
            "*OrderDependency: 10 AnySetup *Resolution",
            "*DefaultResolution: 300dpi",
            "*Resolution 300dpi/300 dpi: \"\"",
            "*Resolution 600dpi/600 dpi: \"\"",
            "*CloseUI: *Resolution",
            "*% Two-sided: the filter lays out the backs (blank ones too). cupsd reads the queue's",
            "*% sides-supported from this option, so lp, swiftprint print and printers agree.",
            "*OpenUI *Duplex/Two-sided: PickOne",
            "*OrderDependency: 10 AnySetup *Duplex",
            "*DefaultDuplex: None",
            "*Duplex None/One-sided: \"\"",
            "*Duplex DuplexNoTumble/Two-sided, long edge: \"\"",
            "*Duplex DuplexTumble/Two-sided, short edge: \"\"",
            "*CloseUI: *Duplex",
        ]
        for type in routed {
            lines.append("*cupsFilter2: \"\(type) \(outputType) \(routeCost(type)) \(filterName)\"")
        }
        return (lines + paperLines(defaultMedia: defaultMedia) + optionLines()).joined(separator: "\n") + "\n"
    }

    /// The papers: PageSize and PageRegion choices, each paper's imageable area and dimensions.
    static func paperLines(defaultMedia: MediaSize) -> [String] {
        var lines: [String] = []
        let papers = MediaSize.catalogue
        let defaultName = papers.first { $0.media.pwgName == defaultMedia.pwgName }?.ppdName ?? "A4"
        func number(_ v: Double) -> String { String(format: "%.2f", v) }
        // PPD text is ISO Latin-1: labels are kept to ASCII.
        func label(_ text: String) -> String { String(text.unicodeScalars.map { $0.isASCII && $0 != "/" && $0 != ":" ? Character($0) : "-" }) }
        for keyword in ["PageSize", "PageRegion"] {
            lines.append("*OpenUI *\(keyword)/Media Size: PickOne")
            lines.append("*OrderDependency: 10 AnySetup *\(keyword)")
            lines.append("*Default\(keyword): \(defaultName)")
            for (media, name) in papers {
                let s = media.size
                lines.append("*\(keyword) \(name)/\(label(media.displayName)): \"<</PageSize[\(number(s.width)) \(number(s.height))]>>setpagedevice\"")
            }
            lines.append("*CloseUI: *\(keyword)")
        }
        lines.append("*DefaultImageableArea: \(defaultName)")
        for (media, name) in papers {
            lines.append("*ImageableArea \(name)/\(label(media.displayName)): \"0 0 \(number(media.size.width)) \(number(media.size.height))\"")
        }
        lines.append("*DefaultPaperDimension: \(defaultName)")
        for (media, name) in papers {
            lines.append("*PaperDimension \(name)/\(label(media.displayName)): \"\(number(media.size.width)) \(number(media.size.height))\"")
        }
        return lines
    }

    /// swiftprint's own options, as their declarations say the PPD offers them.
    static func optionLines() -> [String] {
        var lines: [String] = []
        for option in JobSettings.ppdOptions {
            guard let ppd = option.ppd else { continue }
            lines.append("*OpenUI *\(option.name)/\(ppd.label): PickOne")
            lines.append("*OrderDependency: 20 AnySetup *\(option.name)")
            lines.append("*Default\(option.name): \(ppd.defaultKeyword)")
            for choice in ppd.choices { lines.append("*\(option.name) \(choice.keyword)/\(choice.label): \"\"") }
            lines.append("*CloseUI: *\(option.name)")
        }
        return lines
    }
}
