import PrintModel

extension JobSettings {
    /// The checks between options, in one place: each option may be right alone and wrong beside
    /// another. The error names the option to change (`PrintError.option`) for each front end to
    /// word its own way (`--cmyk-profile` on the command line, `lp -o …` in a CUPS job); its
    /// message names no flag.
    public func checkCombinations() throws {
        let rasterType = info.rasterType
        if info.outputFormat == .appleRaster {
            if let resolution = info.printerResolution, resolution.x != resolution.y {
                throw PrintError(.invalidOption, "Apple raster has one resolution for both directions, not \(resolution)",
                                 option: RasterOptions.resolution.name)
            }
            if let rasterType, [.black1, .black8, .black16, .sgray1].contains(rasterType) {
                throw PrintError(.invalidOption, "Apple raster has no black or 1-bit colour space, as \(rasterType.rawValue) asks (sgray_8 is its grey)",
                                 option: RasterOptions.rasterType.name)
            }
        }
        if info.outputFormat == .pwgRaster || info.outputFormat == .appleRaster, let rasterType, rasterType == .cmyk8 || rasterType == .cmyk16,
           cmykProfile == nil {
            throw PrintError(.invalidOption, "\(rasterType.rawValue) raster output needs the ICC profile of the printer's inks",
                             option: RasterOptions.cmykProfile.name)
        }
    }
}
