import Foundation

extension PrinterDelivery {
    /// `info` with what the job is sent as: PDF when the printer takes it (a CUPS queue always
    /// does: its filters convert), else PWG raster, else Apple raster, at a resolution and in a
    /// type the printer lists (`pwg-raster-document-resolution-supported` and `-type-supported`,
    /// or `urf-supported`), what the job asks for first. `--output-format` forces one (for a
    /// printer whose PDF support is poor); an error when the printer does not take it.
    public func outputSettings(for info: PrintInfo) throws -> PrintInfo {
        var info = info
        let formats = capabilities.documentFormats
        func takes(_ format: OutputFormat) -> Bool { formats.isEmpty || formats.contains(format.mimeType) }
        if let asked = info.outputFormat {
            guard takes(asked) else {
                throw PrintError(.unsupportedByPrinter, "\(asked.mimeType) asked; \(printer) takes \(formats.joined(separator: ", "))",
                                 option: RasterOptions.outputFormat.name)
            }
        } else {
            guard let format = [OutputFormat.pdf, .pwgRaster, .appleRaster].first(where: takes) else {
                throw PrintError(.unsupportedByPrinter, "\(printer) takes none of PDF, PWG raster and Apple raster (it takes \(formats.joined(separator: ", ")))")
            }
            info.outputFormat = format
        }
        let gray = info.outputType == .grayscale || info.outputType == .photoGrayscale || !capabilities.printsColor
        switch info.outputFormat {
        case .pwgRaster?:
            let resolutions = capabilities.pwgRasterResolutions.compactMap(PrinterResolution.init(text:))
            info.printerResolution = try Self.resolution(info.printerResolution, among: resolutions, printer: printer)
            let types = capabilities.pwgRasterTypes.compactMap(RasterType.init(rawValue:))
            info.rasterType = try Self.type(info.rasterType, gray: gray, among: types, listed: capabilities.pwgRasterTypes, printer: printer)
        case .appleRaster?:
            // urf-supported: RS300-600 (resolutions), W8 (grey), SRGB24 (sRGB), …
            let rs = capabilities.urfSupported.first { $0.hasPrefix("RS") }.map { $0.dropFirst(2).split(separator: "-").compactMap { Int($0) } } ?? []
            info.printerResolution = try Self.resolution(info.printerResolution, among: rs.map { PrinterResolution(x: $0, y: $0) }, printer: printer)
            let urfTypes: [String: RasterType] = ["W8": .sgray8, "SRGB24": .srgb8, "W16": .sgray16, "SRGB48": .srgb16]
            let types = capabilities.urfSupported.compactMap { urfTypes[$0] }
            info.rasterType = try Self.type(info.rasterType, gray: gray, among: types, listed: capabilities.urfSupported, printer: printer)
        default: break
        }
        if let format = info.outputFormat { capabilities.applyRasterFacts(format: format, to: &info) }
        return info
    }

    /// The resolution asked (which the printer must list, when it lists any), else the listed
    /// one nearest 300 dpi (the higher on a tie), else 300 dpi.
    static func resolution(_ asked: PrinterResolution?, among listed: [PrinterResolution], printer: String) throws -> PrinterResolution {
        if let asked {
            guard listed.isEmpty || listed.contains(asked) else {
                throw PrintError(.unsupportedByPrinter, "resolution \(asked) asked; \(printer) takes \(listed.map(\.description).joined(separator: ", ")) in raster")
            }
            return asked
        }
        return listed.min { (abs($0.x - 300), -$0.x) < (abs($1.x - 300), -$1.x) } ?? .standard
    }

    /// The type asked (which the printer must list, when it lists any), else the one the job's
    /// colour wants among those listed: grey (sgray, then black) for grey jobs and grey printers,
    /// sRGB otherwise, 8 bits first.
    static func type(_ asked: RasterType?, gray: Bool, among types: [RasterType], listed: [String], printer: String) throws -> RasterType {
        if let asked {
            guard listed.isEmpty || types.contains(asked) else {
                throw PrintError(.unsupportedByPrinter, "raster type \(asked.rawValue) asked; \(printer) takes \(listed.joined(separator: ", "))")
            }
            return asked
        }
        let wanted: [RasterType] = gray ? [.sgray8, .black8, .sgray16, .black16, .srgb8, .srgb16, .black1, .sgray1]
            : [.srgb8, .srgb16, .sgray8, .sgray16, .black8, .black16, .black1, .sgray1]
        if listed.isEmpty { return wanted[0] }
        guard let type = wanted.first(where: types.contains) else {
            throw PrintError(.unsupportedByPrinter, "\(printer)'s raster types (\(listed.joined(separator: ", "))) are none that swiftprint writes")
        }
        return type
    }
}
