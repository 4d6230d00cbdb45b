import ContentDetection
import Foundation
import HandlerSupport
import ImageDecoders
import ImageHandler
import PDFObjects
import PrintJobs
import RasterHandler
import RasterOutput
import SwiftPrint

// Targets for the bytes of a document: its type, and each handler that reads it. Where a handler
// is cheap enough, the target runs the whole job (detection, handler, paginator, PDF), as
// `swiftprint convert` does; a PrintError is then the job's refusal.

/// One job of `data`, named `name` (its extension is part of the input), to a PDF.
func convert(_ data: Data, name: String, declared: String? = nil, _ scratch: FuzzScratch,
             adjust: (inout JobSettings) -> Void = { _ in }) throws {
    var input = PrintInput(path: scratch.file(name, data))
    input.declaredMIMEType = declared
    var settings = JobSettings()
    // A fuzzer's input may ask for a gigapixel image or a thousand pages: a job refuses the
    // first by its limit, and prints the second in time; the fuzzer needs neither.
    settings.limits.pixelsPerImage = 16_000_000
    adjust(&settings)
    let conversion = DocumentConversion(settings: settings, dispatcher: Dispatcher.standard)
    _ = try conversion.run([input], to: .file(scratch.path("output.pdf")))
}

/// A small image limit for decoders called directly (a 4,000 × 4,000 image at most).
let fuzzImageLimits = ImageLimits(maxPixels: 16_000_000)

let detectionTargets = [
    FuzzTarget("detection", reaches: "libmagic; ContentDetector (the three libmagic steps, raster and markup sniffing); ContentSignature") { data, _ in
        let detector = ContentDetector.shared
        let found = try detector.detect(data: data, name: "input")
        for uti in Dispatcher.standard.printableUTIs { _ = ContentSignature.matches(uti: uti, head: data) }
        // A job's declared type is checked against its bytes (cupsd's document-format).
        var input = PrintInput(data: data, name: "input")
        input.head = data.prefix(8192)
        for declared in ["application/pdf", "image/png", "image/urf", "image/pwg-raster", "text/plain", "text/html", found.mimeType] {
            _ = try? detector.refine(declared: declared, input: input)
        }
    },
]

let textTargets = [
    // The first line may name an encoding (`#encoding=cp1255`): iconv is reached by name too.
    FuzzTarget("text", reaches: "BOMs, uchardet, iconv, line splitting (very long lines, tabs, control bytes), pango layout, the grid; one job to PDF") { data, scratch in
        var body = data
        var encoding: String?
        if data.starts(with: Data("#encoding=".utf8)), let end = data.firstIndex(of: UInt8(ascii: "\n")) {
            encoding = String(decoding: data[data.startIndex + 10 ..< end], as: UTF8.self)
            body = data[(end + 1)...]
        }
        try convert(Data(body), name: "input.txt", declared: "text/plain", scratch) { settings in
            settings.text.encoding = encoding
            settings.info.pageRanges = PageRanges(ranges: [1...4])
        }
    },
]

let imageTargets = [
    FuzzTarget("jpeg", reaches: "JPEG markers (SOF, APP1 EXIF, APP2 ICC chunks, APP14, JFIF) read without decoding; the image placed in a PDF") { data, scratch in
        try convert(data, name: "input.jpg", declared: "image/jpeg", scratch)
    },
    FuzzTarget("png", reaches: "libpng (CPNGShim: chunks, interlace, 16-bit, palettes, tRNS, iCCP) row by row into a PDF image") { data, scratch in
        try convert(data, name: "input.png", declared: "image/png", scratch)
    },
    FuzzTarget("image", reaches: "giflib, libtiff (8-bit RGBA and 16-bit scanline readers), libwebp, libheif, BMP, librsvg through ImageDecoding.convert (the swiftprint-image helper's work), in process") { data, scratch in
        _ = try ImageDecoding.convert(path: scratch.file("input", data), allGIFFrames: true, limits: fuzzImageLimits, output: scratch.path("output.pdf"))
    },
    FuzzTarget("jxl", reaches: "libjxl (CJxlShim: header, colour encoding, ICC, frames of an animation), the profile made from the encoding, HDR tone mapping, 16-bit samples into a PDF image") { data, scratch in
        _ = try ImageDecoding.convert(path: scratch.file("input.jxl", data), allGIFFrames: true, limits: fuzzImageLimits, output: scratch.path("output.pdf"))
    },
    FuzzTarget("avif", reaches: "libavif (CAvifShim: ISO media boxes, AV1 through dav1d, still images and sequences' tracks, irot/imir turning), nclx and ICC colour, 10- and 12-bit samples, alpha, HDR tone mapping; a mutated brand reaches libheif's HEIF path") { data, scratch in
        _ = try ImageDecoding.convert(path: scratch.file("input.avif", data), allGIFFrames: true, limits: fuzzImageLimits, output: scratch.path("output.pdf"))
    },
]

let rasterTargets = [
    FuzzTarget("raster", reaches: "libcups's raster reader (cupsRasterReadHeader2 and cupsRasterReadPixels: CUPS v1-v3, PWG, Apple), RasterPage's checks, the pages as PDF images") { data, scratch in
        let formatter = try RasterPrintFormatter(input: PrintInput(path: scratch.file("input.ras", data)), limits: fuzzImageLimits)
        _ = formatter.pageCount
    },
]

let pdfTargets = [
    FuzzTarget("pdf", reaches: "qpdf (the shim: open, xref recovery, page geometry, pages as form XObjects, fonts kept), poppler's repair when qpdf finds no pages; one job to PDF") { data, scratch in
        try convert(data, name: "input.pdf", declared: "application/pdf", scratch) { settings in
            settings.info.pageRanges = PageRanges(ranges: [1...4])
        }
    },
    // A job draws raster in swiftprint-raster, where the fuzzer would not see it: the job's
    // PDF is made here, and drawn in this process as the helper draws it, after the job's
    // image-limit check.
    FuzzTarget("pdf-raster", reaches: "poppler's rasteriser (Splash) drawing a job's pages in Adobe RGB: every colour space managed on the way (CanvasColours), images scaled once before the bands (PrescaledImages); the job's image limit") { data, scratch in
        var settings: JobSettings?
        try convert(data, name: "input.pdf", declared: "application/pdf", scratch) {
            $0.info.pageRanges = PageRanges(ranges: [1...2])
            settings = $0
        }
        let pdf = scratch.path("output.pdf")
        try DocumentConversion.checkImagesBeforeDrawing(QPDFDocument(path: pdf), limits: settings!.limits)
        var info = settings!.info
        info.outputFormat = .pwgRaster
        info.rasterType = .adobeRGB8
        info.printerResolution = PrinterResolution(x: 36, y: 36)
        _ = try RasterDocumentWriter(info: info).write(pdf: pdf, to: { _ in }, sheetWritten: { _ in })
    },
    FuzzTarget("pdf-repair", reaches: "poppler's core reading a damaged PDF and writing its objects again (CPDFRepairShim), then qpdf opening the rewrite") { data, scratch in
        let output = scratch.path("repaired.pdf")
        _ = try PDFRepair.rewrite(scratch.file("input.pdf", data), to: output)
        let document = try QPDFDocument(path: output)
        _ = document.pageCount
    },
    // A web font arrives inside WebKit's PDF as an embedded TrueType program: the input is that
    // program, embedded in a one-page PDF that shows glyphs 1-40 of it.
    FuzzTarget("font-subset", reaches: "HarfBuzz's subsetter (hb-subset, retain-gids) on an embedded TrueType/OpenType program, through the qpdf shim") { data, scratch in
        let document = try QPDFDocument(path: scratch.file("input.pdf", FontSubsetPDF.embedding(data)))
        try document.subsetEmbeddedFonts()
        let out = try OutputFile(.file(scratch.path("output.pdf")))
        try document.write(to: out)
        try out.commit()
    },
]

/// A one-page PDF whose font's program (FontFile2) is given bytes.
enum FontSubsetPDF {
    static func embedding(_ program: Data) -> Data {
        let text = (1...40).map { String(format: "%04X", $0) }.joined()
        let content = "BT /F1 12 Tf 72 720 Td <\(text)> Tj ET"
        var objects: [Data] = [
            Data("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Data("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".utf8),
            Data("<< /Type /Font /Subtype /Type0 /BaseFont /Fuzzed /Encoding /Identity-H /DescendantFonts [6 0 R] >>".utf8),
            Data("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream".utf8),
            Data("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Fuzzed /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /CIDToGIDMap /Identity >>".utf8),
            Data("<< /Type /FontDescriptor /FontName /Fuzzed /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 8 0 R >>".utf8),
        ]
        var stream = Data("<< /Length \(program.count) >>\nstream\n".utf8)
        stream.append(program)
        stream.append(Data("\nendstream".utf8))
        objects.append(stream)
        var pdf = Data("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(pdf.count)
            pdf.append(Data("\(i + 1) 0 obj\n".utf8))
            pdf.append(object)
            pdf.append(Data("\nendobj\n".utf8))
        }
        let xref = pdf.count
        pdf.append(Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8))
        for offset in offsets { pdf.append(Data(String(format: "%010d 00000 n \n", offset).utf8)) }
        pdf.append(Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8))
        return pdf
    }
}
