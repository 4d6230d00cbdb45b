@testable import CUPSClient
import CUPSLibrary
import Foundation
import PrintModel
import Testing

/// The printer-capabilities adapter alone, without a cupsd: a queue's PPD read into the same
/// typed capabilities IPP gives, and the one place that settles a job's raster from them.
@Suite struct PrinterCapabilitiesTests {
    /// A colour raster printer's PPD as CUPS writes them for IPP Everywhere printers: two papers,
    /// grey and colour, 300 and 600 dpi, two-sided, backs rotated.
    static let ppdText = """
        *PPD-Adobe: "4.3"
        *FormatVersion: "4.3"
        *FileVersion: "1.0"
        *LanguageVersion: English
        *LanguageEncoding: ISOLatin1
        *PCFileName: "CAPTEST.PPD"
        *Manufacturer: "Test"
        *Product: "(Capabilities Test)"
        *ModelName: "Capabilities Test"
        *ShortNickName: "Capabilities Test"
        *NickName: "Capabilities Test"
        *PSVersion: "(3010.000) 0"
        *LanguageLevel: "3"
        *ColorDevice: True
        *DefaultColorSpace: RGB
        *FileSystem: False
        *Throughput: "1"
        *LandscapeOrientation: Plus90
        *TTRasterizer: Type42
        *cupsVersion: 2.4
        *cupsFilter2: "application/vnd.cups-pdf image/pwg-raster 0 -"
        *cupsBackSide: Rotated
        *OpenUI *PageSize: PickOne
        *OrderDependency: 10 AnySetup *PageSize
        *DefaultPageSize: A4
        *PageSize A4/A4: "<</PageSize[595 842]>>setpagedevice"
        *PageSize Letter/US Letter: "<</PageSize[612 792]>>setpagedevice"
        *CloseUI: *PageSize
        *OpenUI *PageRegion: PickOne
        *OrderDependency: 10 AnySetup *PageRegion
        *DefaultPageRegion: A4
        *PageRegion A4/A4: "<</PageSize[595 842]>>setpagedevice"
        *PageRegion Letter/US Letter: "<</PageSize[612 792]>>setpagedevice"
        *CloseUI: *PageRegion
        *DefaultImageableArea: A4
        *ImageableArea A4: "12 18 583 824"
        *ImageableArea Letter: "12 18 600 774"
        *DefaultPaperDimension: A4
        *PaperDimension A4: "595 842"
        *PaperDimension Letter: "612 792"
        *OpenUI *ColorModel/Color Mode: PickOne
        *OrderDependency: 10 AnySetup *ColorModel
        *DefaultColorModel: RGB
        *ColorModel Gray/Grayscale: "<</cupsColorSpace 18/cupsBitsPerColor 8/cupsColorOrder 0/cupsCompression 0>>setpagedevice"
        *ColorModel RGB/Color: "<</cupsColorSpace 19/cupsBitsPerColor 8/cupsColorOrder 0/cupsCompression 0>>setpagedevice"
        *CloseUI: *ColorModel
        *OpenUI *Resolution/Resolution: PickOne
        *OrderDependency: 10 AnySetup *Resolution
        *DefaultResolution: 300dpi
        *Resolution 300dpi/300 DPI: "<</HWResolution[300 300]>>setpagedevice"
        *Resolution 600dpi/600 DPI: "<</HWResolution[600 600]>>setpagedevice"
        *CloseUI: *Resolution
        *OpenUI *Duplex/2-Sided Printing: PickOne
        *OrderDependency: 10 AnySetup *Duplex
        *DefaultDuplex: None
        *Duplex None/Off: "<</Duplex false>>setpagedevice"
        *Duplex DuplexNoTumble/Long Edge: "<</Duplex true/Tumble false>>setpagedevice"
        *Duplex DuplexTumble/Short Edge: "<</Duplex true/Tumble true>>setpagedevice"
        *CloseUI: *Duplex

        """

    static func ppd() throws -> PPDFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("captest-\(getpid())-\(UUID().uuidString).ppd").path
        try ppdText.write(toFile: path, atomically: true, encoding: .isoLatin1)
        defer { unlink(path) }
        return try PPDFile(path: path)
    }

    @Test func aPPDReadsAsTheCapabilitiesIPPGives() throws {
        let caps = PrinterCapabilities(ppd: try Self.ppd())
        #expect(caps.media.contains("iso_a4_210x297mm") && caps.media.contains("na_letter_8.5x11in"), "\(caps.media)")
        #expect(caps.defaultMedia == "iso_a4_210x297mm")
        #expect(Set(caps.sides) == ["one-sided", "two-sided-long-edge", "two-sided-short-edge"], "\(caps.sides)")
        #expect(caps.printsColor && caps.printsTwoSided)
        #expect(caps.sheetBack == .rotated)
        // The raster the PPD's code sets up for a job that asks nothing.
        #expect(caps.rasterDefaultResolution == PrinterResolution(x: 300, y: 300))
        #expect(caps.rasterDefaultType == .srgb8)
    }

    /// The job's IPP options reach the PPD as CUPS's raster filters read them: libcups maps
    /// print-color-mode to ColorModel, and a PPD option may be named directly.
    @Test func aJobsOptionsChooseThePPDsRaster() throws {
        let ppd = try Self.ppd()
        let gray = PrinterCapabilities(ppd: ppd, jobOptions: [("print-color-mode", "monochrome")])
        #expect(gray.rasterDefaultType == .sgray8)
        let fine = PrinterCapabilities(ppd: ppd, jobOptions: [("Resolution", "600dpi")])
        #expect(fine.rasterDefaultResolution == PrinterResolution(x: 600, y: 600))
        let settled = try fine.settleRaster(.pwgRaster, in: PrintInfo(), printer: "Test")
        #expect(settled.printerResolution == PrinterResolution(x: 600, y: 600) && settled.rasterType == .srgb8 && settled.sheetBack == .rotated)
    }

    /// IPP lists choices; a PPD's driver chooses. The same code settles both, and what the job
    /// asked comes first.
    @Test func theRasterIsSettledTheSameFromIPPListsOrAPPDsChoice() throws {
        let ipp = PrinterCapabilities(colorModes: ["monochrome", "color"], pwgRasterResolutions: ["150dpi", "600dpi", "300dpi"],
                                      pwgRasterTypes: ["sgray_8", "srgb_8"], sheetBack: .flipped)
        var settled = try ipp.settleRaster(.pwgRaster, in: PrintInfo(), printer: "Cheap")
        #expect(settled.printerResolution == PrinterResolution(x: 300, y: 300) && settled.rasterType == .srgb8 && settled.sheetBack == .flipped)
        var asked = PrintInfo()
        asked.printerResolution = PrinterResolution(x: 1200, y: 1200)
        let refused = #expect(throws: PrintError.self) { try ipp.settleRaster(.pwgRaster, in: asked, printer: "Cheap") }
        #expect(refused?.option == "printer-resolution", "the refusal names the option, for each door to word")
        asked.printerResolution = nil
        asked.outputType = .grayscale
        #expect(try ipp.settleRaster(.pwgRaster, in: asked, printer: "Cheap").rasterType == .sgray8)
        // A grey printer gets grey even for a colour job.
        var grey = ipp
        grey.colorModes = ["monochrome"]
        #expect(try grey.settleRaster(.pwgRaster, in: PrintInfo(), printer: "Cheap").rasterType == .sgray8)
        // A driver's choice, with nothing listed: taken as it is; Apple raster has one resolution.
        let driver = PrinterCapabilities(rasterDefaultResolution: PrinterResolution(x: 600, y: 300), rasterDefaultType: .sgray8)
        settled = try driver.settleRaster(.appleRaster, in: PrintInfo(), printer: "Queue")
        #expect(settled.printerResolution == PrinterResolution(x: 600, y: 600) && settled.rasterType == .sgray8)
        // The job's own choice stays, the back's turn included.
        var chosen = PrintInfo()
        chosen.printerResolution = PrinterResolution(x: 150, y: 150)
        chosen.sheetBack = .normal
        settled = try ipp.settleRaster(.pwgRaster, in: chosen, printer: "Cheap")
        #expect(settled.printerResolution == PrinterResolution(x: 150, y: 150) && settled.sheetBack == .normal)
        // PDF is not raster: nothing settled.
        settled = try ipp.settleRaster(.pdf, in: PrintInfo(), printer: "Cheap")
        #expect(settled.printerResolution == nil && settled.rasterType == nil && settled.sheetBack == nil)
    }

    /// A colour photo goes to a printer that takes 16-bit Adobe RGB in it (what cups-filters
    /// chooses for deep colour): its pages are drawn in Adobe RGB, so a wide-gamut photo keeps
    /// its colours. Anything else, a grey photo, or a printer without it: sRGB or grey as before.
    @Test func aColourPhotoTakesAdobeRGBWhereThePrinterListsIt() throws {
        let photoPrinter = PrinterCapabilities(colorModes: ["monochrome", "color"], pwgRasterResolutions: ["300dpi"],
                                               pwgRasterTypes: ["sgray_8", "srgb_8", "adobe-rgb_8", "adobe-rgb_16"])
        var photo = PrintInfo()
        photo.outputType = .photo
        #expect(try photoPrinter.settleRaster(.pwgRaster, in: photo, printer: "Photo").rasterType == .adobeRGB16)
        #expect(try photoPrinter.settleRaster(.pwgRaster, in: PrintInfo(), printer: "Photo").rasterType == .srgb8)
        var greyPhoto = photo
        greyPhoto.outputType = .photoGrayscale
        #expect(try photoPrinter.settleRaster(.pwgRaster, in: greyPhoto, printer: "Photo").rasterType == .sgray8)
        var asked = photo
        asked.rasterType = .srgb8
        #expect(try photoPrinter.settleRaster(.pwgRaster, in: asked, printer: "Photo").rasterType == .srgb8, "what the job asks comes first")
        let office = PrinterCapabilities(colorModes: ["color"], pwgRasterTypes: ["srgb_8", "adobe-rgb_8"])
        #expect(try office.settleRaster(.pwgRaster, in: photo, printer: "Office").rasterType == .srgb8, "8-bit Adobe RGB only when asked")
    }

    /// Apple raster's choices are in urf-supported: resolutions (RS), types (W8, SRGB24) and
    /// the back's turn (DM1–DM4), which wins over PWG raster's.
    @Test func appleRastersChoicesComeFromURFSupported() throws {
        let urf = PrinterCapabilities(colorModes: ["color"], urfSupported: ["RS300-600", "W8", "SRGB24", "DM2"], sheetBack: .rotated)
        let settled = try urf.settleRaster(.appleRaster, in: PrintInfo(), printer: "Phone")
        #expect(settled.printerResolution == PrinterResolution(x: 300, y: 300) && settled.rasterType == .srgb8 && settled.sheetBack == .flipped)
        var asked = PrintInfo()
        asked.rasterType = .srgb16
        #expect(throws: PrintError.self) { try urf.settleRaster(.appleRaster, in: asked, printer: "Phone") }
        #expect(urf.sheetBack(for: .pwgRaster) == .rotated && urf.sheetBack(for: .pdf) == nil)
    }

    /// Capabilities saved before a key existed still read, the new keys empty.
    @Test func capabilitiesSavedBeforeAKeyExistedStillRead() throws {
        let old = #"{"media":["iso_a4_210x297mm"],"sides":["one-sided"]}"#
        let caps = try JSONDecoder().decode(PrinterCapabilities.self, from: Data(old.utf8))
        #expect(caps.media == ["iso_a4_210x297mm"] && caps.sheetBack == nil && caps.rasterDefaultType == nil)
        var full = caps
        full.rasterDefaultResolution = PrinterResolution(x: 600, y: 600)
        full.rasterDefaultType = .sgray8
        full.sheetBack = .manualTumble
        #expect(try JSONDecoder().decode(PrinterCapabilities.self, from: JSONEncoder().encode(full)) == full)
    }
}
