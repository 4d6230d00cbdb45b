import PrintModel
import PrintOptions

/// The raster a job is sent as, chosen from the printer's capabilities the same way through
/// every door: `swiftprint print` and an app's print controller (capabilities from IPP) and
/// the CUPS filter (capabilities from the queue's PPD and the job's options).
extension PrinterCapabilities {
    /// `info` with the resolution, type and back-side turn of raster `format` settled: what the
    /// job asked, which the printer must list when it lists any; else what the printer's driver
    /// chooses (a PPD's); else the listed resolution nearest 300 dpi and the listed type the
    /// job's colour wants (a colour photo: 16-bit Adobe RGB where listed); else 300 dpi and
    /// 8-bit sRGB or grey. Errors name `printer`.
    public func settleRaster(_ format: OutputFormat, in info: PrintInfo, printer: String) throws -> PrintInfo {
        var info = info
        info.outputFormat = format
        guard format != .pdf else { return info }
        let gray = info.outputType == .grayscale || info.outputType == .photoGrayscale || !printsColor
        let listed = rasterLists(format)
        var resolution = try Self.resolution(info.printerResolution, default: rasterDefaultResolution, among: listed.resolutions, printer: printer)
        // Apple raster has one resolution for both ways.
        if format == .appleRaster, info.printerResolution == nil { resolution.y = resolution.x }
        info.printerResolution = resolution
        info.rasterType = try Self.type(info.rasterType, default: rasterDefaultType, gray: gray, photo: info.outputType == .photo,
                                        among: listed.types, listed: listed.names, printer: printer)
        if info.sheetBack == nil { info.sheetBack = sheetBack(for: format) }
        return info
    }

    /// How the printer turns the backs of two-sided sheets of raster `format`: Apple raster's
    /// from `urf-supported` (DM1 normal, DM2 flipped, DM3 rotated, DM4 manual tumble), else
    /// `sheetBack`; nil for PDF, which the printer turns itself.
    public func sheetBack(for format: OutputFormat) -> SheetBack? {
        switch format {
        case .pdf: return nil
        case .pwgRaster: return sheetBack
        case .appleRaster:
            let turns: [String: SheetBack] = ["DM1": .normal, "DM2": .flipped, "DM3": .rotated, "DM4": .manualTumble]
            return urfSupported.lazy.compactMap { turns[$0] }.first ?? sheetBack
        }
    }

    /// The resolutions and types the printer lists for `format`: PWG raster's own attributes,
    /// or Apple raster's `urf-supported` (`RS300-600` resolutions, `W8` grey, `SRGB24` sRGB, …);
    /// `names` as the printer wrote them, for errors.
    private func rasterLists(_ format: OutputFormat) -> (resolutions: [PrinterResolution], types: [RasterType], names: [String]) {
        switch format {
        case .pwgRaster:
            return (pwgRasterResolutions.compactMap(PrinterResolution.init(text:)), pwgRasterTypes.compactMap(RasterType.init(rawValue:)), pwgRasterTypes)
        case .appleRaster:
            let rs = urfSupported.first { $0.hasPrefix("RS") }.map { $0.dropFirst(2).split(separator: "-").compactMap { Int($0) } } ?? []
            let urfTypes: [String: RasterType] = ["W8": .sgray8, "SRGB24": .srgb8, "W16": .sgray16, "SRGB48": .srgb16]
            return (rs.map { PrinterResolution(x: $0, y: $0) }, urfSupported.compactMap { urfTypes[$0] }, urfSupported)
        case .pdf:
            return ([], [], [])
        }
    }

    /// The resolution asked (which the printer must list, when it lists any), else the driver's,
    /// else the listed one nearest 300 dpi (the higher on a tie), else 300 dpi.
    static func resolution(_ asked: PrinterResolution?, default chosen: PrinterResolution?, among listed: [PrinterResolution],
                           printer: String) throws -> PrinterResolution {
        if let asked {
            guard listed.isEmpty || listed.contains(asked) else {
                throw PrintError(.unsupportedByPrinter, "resolution \(asked) asked; \(printer) takes \(listed.map(\.description).joined(separator: ", ")) in raster",
                                 option: RasterOptions.resolution.name)
            }
            return asked
        }
        return chosen ?? listed.min { (abs($0.x - 300), -$0.x) < (abs($1.x - 300), -$1.x) } ?? .standard
    }

    /// The type asked (which the printer must list, when it lists any), else the driver's, else
    /// the one the job's colour wants among those listed: grey (sgray, then black) for grey jobs
    /// and grey printers; for a colour photo 16-bit Adobe RGB, the one Adobe RGB type
    /// cups-filters chooses unasked, so that a wide-gamut photo keeps the colours sRGB cannot
    /// hold (its pages are drawn in Adobe RGB; the gain is gamut, not depth: the samples are the
    /// 8-bit drawing widened); sRGB otherwise, 8 bits first.
    static func type(_ asked: RasterType?, default chosen: RasterType?, gray: Bool, photo: Bool = false, among types: [RasterType], listed: [String],
                     printer: String) throws -> RasterType {
        if let asked {
            guard listed.isEmpty || types.contains(asked) else {
                throw PrintError(.unsupportedByPrinter, "raster type \(asked.rawValue) asked; \(printer) takes \(listed.joined(separator: ", "))",
                                 option: RasterOptions.rasterType.name)
            }
            return asked
        }
        if let chosen { return chosen }
        if photo, !gray, types.contains(.adobeRGB16) { return .adobeRGB16 }
        let wanted: [RasterType] = gray ? [.sgray8, .black8, .sgray16, .black16, .srgb8, .srgb16, .black1, .sgray1]
            : [.srgb8, .srgb16, .sgray8, .sgray16, .black8, .black16, .black1, .sgray1]
        if listed.isEmpty { return wanted[0] }
        guard let type = wanted.first(where: types.contains) else {
            throw PrintError(.unsupportedByPrinter, "\(printer)'s raster types (\(listed.joined(separator: ", "))) are none that swiftprint writes")
        }
        return type
    }
}
