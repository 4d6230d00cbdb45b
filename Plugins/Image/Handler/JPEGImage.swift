import Foundation
import HandlerSupport

/// What a JPEG's markers say, read without decoding a pixel: enough to store the file byte for
/// byte as a PDF image (DCTDecode) with the right colour space, ICC profile and orientation.
struct JPEGHeader {
    var width = 0
    var height = 0
    var components = 0
    var bitsPerComponent = 8
    var progressive = false
    /// EXIF orientation, 1…8.
    var orientation = 1
    /// The ICC profile from the APP2 chunks, in order.
    var iccProfile: Data?
    /// An Adobe APP14 marker: Adobe's CMYK JPEGs store inverted samples.
    var hasAdobeMarker = false
    /// Pixels per inch from JFIF, when it says.
    var ppi: Double?
    /// The bytes of the first image, when more follow it: a Multi-Picture file (APP2 `MPF`), as an
    /// HDR photo with a gain map is (Ultra HDR, Apple's and Adobe's): its first image is the SDR
    /// one to print, the gain map after it is for HDR screens and is left out. Nil: the whole file.
    var primaryLength: Int?

    /// Reads the markers of `data`; throws for anything that is not a complete JPEG.
    init(data: Data, path: String) throws {
        let bytes = [UInt8](data.prefix(1 << 20))  // markers before the scan sit near the start
        func bad(_ why: String) -> PrintError { PrintError(.invalidInput, path: path, "not a valid JPEG (\(why))") }
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw bad("no start-of-image marker") }
        var i = 2
        var iccChunks: [Int: Data] = [:]
        var sawFrame = false
        var multiPicture = false, scanStart = 0
        scan: while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { throw bad("garbage between markers") }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { throw PrintError(.invalidInput, path: path, "the JPEG is truncated") }
            let body = Array(bytes[(i + 4)..<(i + 2 + length)])
            switch marker {
            case 0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
                guard body.count >= 6 else { throw bad("short frame header") }
                bitsPerComponent = Int(body[0])
                height = Int(body[1]) << 8 | Int(body[2])
                width = Int(body[3]) << 8 | Int(body[4])
                components = Int(body[5])
                progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                sawFrame = true
            case 0xE0 where body.starts(with: Array("JFIF\0".utf8)) && body.count >= 12:
                let unit = body[7], x = Double(Int(body[8]) << 8 | Int(body[9]))
                if x > 1 { ppi = unit == 1 ? x : unit == 2 ? x * 2.54 : nil }
            case 0xE1 where body.starts(with: Array("Exif\0\0".utf8)):
                orientation = Self.exifOrientation(Array(body.dropFirst(6))) ?? orientation
            case 0xE2 where body.starts(with: Array("ICC_PROFILE\0".utf8)) && body.count > 14:
                iccChunks[Int(body[12])] = Data(body[14...])
            case 0xE2 where body.starts(with: Array("MPF\0".utf8)):
                multiPicture = true
            case 0xEE where body.starts(with: Array("Adobe".utf8)):
                hasAdobeMarker = true
            case 0xDA:
                scanStart = i
                break scan
            case 0xD9:
                throw bad("it ends before any image data")
            default:
                break
            }
            i += 2 + length
        }
        guard sawFrame else { throw bad("no frame header") }
        guard width > 0, height > 0 else { throw bad("it declares no size") }
        guard [1, 3, 4].contains(components) else { throw bad("\(components) colour components") }
        guard bitsPerComponent == 8 else { throw bad("\(bitsPerComponent)-bit samples are not supported by PDF readers") }
        // The image must end with an end-of-image marker (padding after it is allowed).
        var end = data.count
        while end > 2, data[data.startIndex + end - 1] == 0x00 { end -= 1 }
        guard end >= 2, data[data.startIndex + end - 2] == 0xFF, data[data.startIndex + end - 1] == 0xD9 else {
            throw PrintError(.invalidInput, path: path, "the JPEG is truncated (no end-of-image marker)")
        }
        // A 0xFF in the scan's data is followed by 0x00 or a restart marker, so the first FF D9
        // after the scan starts ends the first image.
        if multiPicture, scanStart > 0,
           let eoi = data.range(of: Data([0xFF, 0xD9]), in: (data.startIndex + scanStart)..<(data.startIndex + end)),
           eoi.upperBound < data.startIndex + end {
            primaryLength = eoi.upperBound - data.startIndex
        }
        if !iccChunks.isEmpty {
            iccProfile = iccChunks.keys.sorted().reduce(into: Data()) { $0.append(iccChunks[$1]!) }
        }
    }

    /// The orientation tag (0x0112) of an EXIF TIFF block.
    static func exifOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49
        func u16(_ o: Int) -> Int? {
            guard o + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[o]) | Int(tiff[o + 1]) << 8 : Int(tiff[o]) << 8 | Int(tiff[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for n in 0..<count {
            let entry = ifd + 2 + n * 12
            if u16(entry) == 0x0112, let value = u16(entry + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}

/// A JPEG placed as it is: the file's bytes become the PDF image's stream.
final class JPEGImage: PlaceableObject {
    let path: String
    let header: JPEGHeader
    /// The file whose header was read; the bytes stored must be of this version of it.
    let version: FileVersion

    init(path: String, limits: ImageLimits) throws {
        self.path = path
        let data = try readFile(path)
        guard let version = FileVersion.of(path) else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot read the file", errno: errno)
        }
        self.version = version
        header = try JPEGHeader(data: data, path: path)
        try limits.check(width: header.width, height: header.height, path: path)
    }

    /// The file's bytes are read only as the output is written, a piece at a time, so that a
    /// job of many photos (or one of 100 megapixels) never holds a whole photo beside the one
    /// the PDF writer is writing.
    func addObject(to document: QPDFDocument) throws -> Int64 {
        var info = ImageObjectInfo(width: header.width, height: header.height,
                                   colorModel: header.components == 1 ? .gray : header.components == 4 ? .cmyk : .rgb)
        if let icc = header.iccProfile, ICCProfile.matches(icc, components: header.components) { info.iccProfile = icc }
        info.invertedCMYK = header.components == 4 && header.hasAdobeMarker
        let (path, version) = (path, version)
        let length = header.primaryLength.map(Int64.init) ?? version.size
        return try document.addJPEG(info: info, length: length,
                                    supplier: StreamSupplier { write in try Self.copy(path, version: version, count: length, to: write) })
    }

    /// Gives the bytes of the file at `path` to `write`, when it is still `version` of it (a file
    /// changed since its header was read would not be the image described).
    static func copy(_ path: String, version: FileVersion, count: Int64, to write: (UnsafeRawBufferPointer) -> Bool) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PrintError.system(.inputUnreadable, path: path, "cannot read the file again to store it", errno: errno) }
        defer { close(fd) }
        guard FileVersion.of(descriptor: fd) == version else {
            throw PrintError(.inputUnreadable, path: path, "the file changed while the job was being made; print it again")
        }
        switch FileBytes.copy(fd, from: 0, count: count, to: write) {
        case nil: return
        case 0: throw PrintError(.inputUnreadable, path: path, "the file changed while the job was being made; print it again")
        case let failure?: throw PrintError.system(.inputUnreadable, path: path, "cannot read the file again to store it", errno: failure)
        }
    }
}
