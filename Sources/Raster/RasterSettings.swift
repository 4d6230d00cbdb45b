import PrintModel

/// What a job's raster output is: its format (PWG or Apple raster), the raster type,
/// resolution and back-side turn asked or their defaults, the CMYK profile and the rendering
/// intent. Parsed once from the job's settings, and sent as they are to the raster helper.
/// Combinations a format has no room for are refused before, with the option to change
/// (`JobSettings.checkCombinations`).
package struct RasterSettings: Codable, Sendable, Equatable {
    /// `.pwgRaster` or `.appleRaster`.
    package var format: OutputFormat
    package var type: RasterType
    package var resolution: PrinterResolution
    /// `sides`, for the header and to know the backs (every second page when two-sided).
    package var duplex: PrintInfo.Duplex
    package var sheetBack: SheetBack
    /// CMYK output: the ICC profile of the printer's inks, which it must name.
    package var cmykProfile: String?
    package var intent: RenderingIntent

    package init(info: PrintInfo, cmykProfile: String? = nil, intent: RenderingIntent = .auto) {
        let gray = info.outputType == .grayscale || info.outputType == .photoGrayscale
        format = info.outputFormat == .appleRaster ? .appleRaster : .pwgRaster
        type = info.rasterType ?? (gray ? .sgray8 : .srgb8)
        resolution = info.printerResolution ?? .standard
        duplex = info.duplex ?? .none
        sheetBack = info.sheetBack ?? .normal
        self.cmykProfile = cmykProfile
        self.intent = intent
    }
}
