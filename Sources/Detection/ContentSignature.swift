import Foundation

/// Whether an input's first bytes carry the signature of the type its sender named. A CUPS job
/// comes with a type (CONTENT_TYPE) that is the job's original type, not always what the filter
/// is handed (cupsd may have run another filter first), and a sender may name a type wrongly (a
/// PNG named `x.pdf`): the bytes decide, as they do for `swiftprint convert`. Checked without
/// libmagic, which a job whose type is right never loads.
public enum ContentSignature {
    /// true: the bytes carry the type's signature; false: they do not; nil: the type has no
    /// signature to check (text, whose type is the sender's to name).
    public static func matches(uti: String, head: Data) -> Bool? {
        let bytes = [UInt8](head.prefix(64))
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        switch uti {
        case "com.adobe.pdf": return ContentDetector.holdsPDFHeader(head)
        case "public.png": return bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case "public.jpeg": return bytes.starts(with: [0xFF, 0xD8, 0xFF])
        case "com.compuserve.gif": return starts("GIF87a") || starts("GIF89a")
        case "public.tiff": return starts("II*\0") || starts("MM\0*") || starts("II+\0") || starts("MM\0+")
        case "org.webmproject.webp": return starts("RIFF") && bytes.count >= 12 && Array(bytes[8..<12]) == Array("WEBP".utf8)
        case "com.microsoft.bmp": return starts("BM")
        case "public.heif", "public.heic": return bytes.count >= 12 && Array(bytes[4..<8]) == Array("ftyp".utf8)
        case "com.apple.urf", "org.pwg.raster", "org.cups.raster": return ContentSniffer.rasterType(bytes) == uti
        default: return nil
        }
    }
}
