import Foundation

extension PrinterDelivery {
    /// `info` with what the job is sent as: PDF when the printer takes it (a CUPS queue always
    /// does: its filters convert), else PWG raster, else Apple raster, at a resolution and in a
    /// type the printer lists (`PrinterCapabilities.settleRaster`, as the CUPS filter settles
    /// them from a PPD), what the job asks for first. `--output-format` forces one (for a
    /// printer whose PDF support is poor); an error when the printer does not take it.
    public func outputSettings(for info: PrintInfo) throws -> PrintInfo {
        let formats = capabilities.documentFormats
        func takes(_ format: OutputFormat) -> Bool { formats.isEmpty || formats.contains(format.mimeType) }
        let format: OutputFormat
        if let asked = info.outputFormat {
            guard takes(asked) else {
                throw PrintError(.unsupportedByPrinter, "\(asked.mimeType) asked; \(printer) takes \(formats.joined(separator: ", "))",
                                 option: RasterOptions.outputFormat.name)
            }
            format = asked
        } else {
            guard let first = [OutputFormat.pdf, .pwgRaster, .appleRaster].first(where: takes) else {
                throw PrintError(.unsupportedByPrinter, "\(printer) takes none of PDF, PWG raster and Apple raster (it takes \(formats.joined(separator: ", ")))")
            }
            format = first
        }
        return try capabilities.settleRaster(format, in: info, printer: printer)
    }
}
