import CUPSLibrary
import PrintModel
import PrintOptions

/// A printer's capabilities from its queue's PPD — what the CUPS filter has — in the same
/// typed form `PrinterDirectory` reads from a printer's IPP attributes (what `swiftprint print`,
/// the picker and `install --printer` have). What a job takes from its printer is applied from
/// either by `applyPrinterFacts`, so a job means the same through every door.
extension PrinterCapabilities {
    /// Read from `ppd`: its papers (by PWG name, as cupsd names them in `media-supported`), the
    /// default paper, the sides its `Duplex` option offers (cupsd's `sides-supported`), colour,
    /// the resolutions of its `Resolution` option, each paper's unprintable margins, and the
    /// raster its code sets up for a job with `jobOptions` (marked on the PPD's defaults; nil:
    /// the job is not raster, and the PPD's raster is not read).
    public init(ppd: PPDFile, jobOptions: [(name: String, value: String)]? = []) {
        let choices = Dictionary(ppd.choices.map { ($0.option, $0.choices) }, uniquingKeysWith: { first, _ in first })
        // The Duplex choices as the sides option reads them (None, DuplexNoTumble, DuplexTumble).
        let sides = (choices["Duplex"] ?? []).compactMap { PrintInfo.Duplex(optionText: $0)?.ippSides }
        // The default paper by its size, or by its name where the PPD gives it no size.
        let defaultName = ppd.defaults.first { $0.name == "PageSize" }?.value
        let defaultMedia = defaultName.flatMap(ppd.paperSize(named:)).flatMap { PPDFile.pwgName(width: $0.width, length: $0.height) }
            ?? defaultName.flatMap(MediaSize.named)?.pwgName
        // `*cupsBackSide: Normal`, `Flipped`, `Rotated`, `ManualTumble`.
        let back = ppd.attribute("cupsBackSide").flatMap { back in
            SheetBack.allCases.first { $0.rawValue.replacingOccurrences(of: "-", with: "") == back.lowercased() }
        }
        self.init(media: ppd.mediaNames,
                  defaultMedia: defaultMedia,
                  sides: sides.isEmpty ? ["one-sided"] : sides,
                  colorModes: ppd.isColorDevice ? ["monochrome", "color"] : ["monochrome"],
                  resolutions: choices["Resolution"] ?? [],
                  margins: ppd.margins, sheetBack: back)
        if let jobOptions, let raster = ppd.rasterSettings(options: jobOptions) {
            rasterDefaultResolution = PrinterResolution(x: raster.resolution.x, y: raster.resolution.y)
            rasterDefaultType = Self.rasterType(raster)
        }
    }

    /// The PWG raster type of a PPD's colour space and depth; nil for one swiftprint does not
    /// write unasked (CMYK needs the inks' profile).
    static func rasterType(_ raster: PPDRasterSettings) -> RasterType? {
        switch (raster.colorSpace, raster.bitsPerColor) {
        case (.gray, 1): .sgray1
        case (.gray, 16): .sgray16
        case (.gray, _): .sgray8
        case (.black, 1): .black1
        case (.black, 16): .black16
        case (.black, _): .black8
        case (.rgb, 16): .srgb16
        case (.rgb, _): .srgb8
        case (.adobeRGB, 16): .adobeRGB16
        case (.adobeRGB, _): .adobeRGB8
        default: nil
        }
    }

    /// What a job takes from the printer it prints on, the same whichever door it came through
    /// (`swiftprint print`, an app's print controller, the CUPS filter): the printer's default
    /// paper, below the job's and the document's own, and what it cannot print at each paper's
    /// edges.
    public func applyPrinterFacts(to settings: inout JobSettings) {
        if settings.queueMedia == nil { settings.queueMedia = defaultMedia.flatMap(MediaSize.named) }
        settings.printerMargins = margins
    }
}
