import CCupsShim
import Foundation
import PrintModel

/// A queue's PPD file, read by libcups: the defaults an administrator chose for the queue
/// (`*DefaultPageSize`, `*Defaultswiftprint-header`, …) and the sizes and printable areas of
/// its papers. The one owner of its `ppd_file_t`.
public final class PPDFile {
    private let ppd: UnsafeMutablePointer<ppd_file_t>

    /// Opens the PPD at `path` (a filter finds it in the PPD environment variable).
    public init(path: String) throws {
        try LibCUPS.load()
        guard let ppd = spcups_ppdOpenFile(path) else {
            var line: Int32 = 0
            let status = spcups_ppdLastError(&line)
            let reason = spcups_ppdErrorString(status).map { String(cString: $0) } ?? "unreadable"
            throw PrintError(.invalidInput, path: path, "the PPD cannot be read: \(reason) (line \(line))")
        }
        self.ppd = ppd
    }

    deinit { spcups_ppdClose(ppd) }

    /// Every option's default choice, in the PPD's order: (`PageSize`, `A4`), …
    public var defaults: [(name: String, value: String)] {
        options.compactMap { o in
            let choice = Self.text(of: o.pointee.defchoice)
            return choice.isEmpty ? nil : (Self.text(of: o.pointee.keyword), choice)
        }
    }

    /// Each option's choices by keyword, in the PPD's order: (`Duplex`, [`None`, `DuplexNoTumble`, …]).
    package var choices: [(option: String, choices: [String])] {
        options.map { o in
            (Self.text(of: o.pointee.keyword), (0..<Int(o.pointee.num_choices)).map { Self.text(of: o.pointee.choices[$0].choice) })
        }
    }

    /// The PPD's options, in its order (valid while the PPD is open).
    private var options: [UnsafeMutablePointer<ppd_option_t>] {
        var result: [UnsafeMutablePointer<ppd_option_t>] = []
        var option = spcups_ppdFirstOption(ppd)
        while let o = option {
            result.append(o)
            option = spcups_ppdNextOption(ppd)
        }
        return result
    }

    /// The text of one of ppd_file_t's fixed-size, NUL-terminated fields (a C array Swift
    /// sees as a tuple).
    private static func text<Field>(of field: Field) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The size in points of the paper the PPD calls `name` (`A4`, `Letter`…), or nil.
    public func paperSize(named name: String) -> CGSize? {
        guard let size = spcups_ppdPageSize(ppd, name), size.pointee.width > 0, size.pointee.length > 0 else { return nil }
        return CGSize(width: Double(size.pointee.width), height: Double(size.pointee.length))
    }

    /// What the printer leaves blank on each of its papers (`*ImageableArea`), by PWG name; a
    /// size with no margins (CUPS names them `NAME.Borderless`) makes that paper borderless.
    public var margins: PrinterMargins {
        var margins = PrinterMargins()
        let file = ppd.pointee
        for i in 0..<Int(file.num_sizes) {
            let size = file.sizes[i]
            // The paper by its size (PWG's name for it), as libcups matches PPD sizes to IPP media.
            guard size.width > 0, size.length > 0, let pwg = Self.pwgName(width: Double(size.width), length: Double(size.length)) else { continue }
            margins.add(media: pwg, edges: EdgeInsets(top: Double(size.length - size.top), left: Double(size.left),
                                                                bottom: Double(size.bottom), right: Double(size.width - size.right)))
        }
        return margins
    }

    /// Whether the printer prints colour (`*ColorDevice: True`).
    package var isColorDevice: Bool { ppd.pointee.color_device != 0 }

    /// The PWG name of each paper the PPD offers, in its order (as libcups matches PPD sizes to
    /// IPP media: by size).
    package var mediaNames: [String] {
        let file = ppd.pointee
        var names: [String] = []
        for i in 0..<Int(file.num_sizes) {
            let size = file.sizes[i]
            guard size.width > 0, size.length > 0, let pwg = Self.pwgName(width: Double(size.width), length: Double(size.length)),
                  !names.contains(pwg) else { continue }
            names.append(pwg)
        }
        return names
    }

    /// The PWG name of the paper `width` × `length` points.
    package static func pwgName(width: Double, length: Double) -> String? {
        spcups_pwgMediaForSize(Int32((width * 2540 / 72).rounded()), Int32((length * 2540 / 72).rounded()))?.pointee.pwg.map { String(cString: $0) }
    }

    /// The value of the PPD's main keyword `name` (`*cupsBackSide: Rotated` → `Rotated`), or nil.
    public func attribute(_ name: String) -> String? {
        guard let attr = spcups_ppdFindAttr(ppd, name, nil), let value = attr.pointee.value else { return nil }
        return String(cString: value)
    }

    /// The raster a printer wants for a job, read as CUPS's own raster filters read it: the
    /// PPD's defaults, the job's `options` marked on them (libcups maps IPP's names, such as
    /// `print-color-mode` and `print-quality`, to the PPD's choices), and the page header
    /// `cupsRasterInterpretPPD` makes of the marked choices. Nil when the PPD's code sets no
    /// raster page (a PDF printer's PPD).
    package func rasterSettings(options: [(name: String, value: String)]) -> PPDRasterSettings? {
        var header = cups_page_header2_t()
        let interpreted = CUPSOptionArray(options).withOptions { count, array in
            spcups_ppdMarkDefaults(ppd)
            _ = spcups_cupsMarkOptions(ppd, count, array)
            return spcups_cupsRasterInterpretPPD(&header, ppd, count, array, nil)
        }
        guard interpreted == 0, header.HWResolution.0 > 0, header.HWResolution.1 > 0 else { return nil }
        return PPDRasterSettings(resolution: (Int(header.HWResolution.0), Int(header.HWResolution.1)),
                                 colorSpace: RasterPageHeader.ColorSpace(cups: header.cupsColorSpace.rawValue),
                                 bitsPerColor: Int(header.cupsBitsPerColor))
    }
}

/// What a queue's PPD asks of raster for a job (see `PPDFile.rasterSettings`).
package struct PPDRasterSettings {
    /// Dots per inch across and down.
    package var resolution: (x: Int, y: Int)
    package var colorSpace: RasterPageHeader.ColorSpace
    package var bitsPerColor: Int
}
