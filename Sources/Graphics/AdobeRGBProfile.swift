import Foundation

/// An ICC profile for Adobe RGB (1998): a version 2 matrix/TRC profile made from the colour
/// space's published definition (a 563/256 gamma, its primaries adapted to the D50 connection
/// space by Bradford, a D65 white). It goes with Adobe RGB raster pages read, whose samples would
/// otherwise print as sRGB, greener and redder than they are, and makes Adobe RGB raster
/// output. Made here rather than read from an installed file so that every machine writes the
/// same bytes.
package enum AdobeRGB {
    package static let profile: Data = {
        // (signature, contents) in the order written.
        let tags: [(String, [UInt8])] = [
            ("desc", description("Adobe RGB (1998) compatible")),
            ("cprt", text("No copyright, use freely")),
            ("wtpt", xyz(0.95045, 1.0, 1.08905)),
            ("rXYZ", xyz(0.6097559, 0.3111145, 0.0194702)),
            ("gXYZ", xyz(0.2052401, 0.6256560, 0.0608902)),
            ("bXYZ", xyz(0.1492240, 0.0632291, 0.7445396)),
            ("rTRC", gamma), ("gTRC", gamma), ("bTRC", gamma),
        ]
        let tableSize = 4 + 12 * tags.count
        var offset = 128 + tableSize
        var table: [UInt8] = be32(tags.count), data: [UInt8] = []
        for (signature, contents) in tags {
            table += Array(signature.utf8) + be32(offset) + be32(contents.count)
            let padded = contents + [UInt8](repeating: 0, count: (4 - contents.count % 4) % 4)
            data += padded
            offset += padded.count
        }
        var header = [UInt8](repeating: 0, count: 128)
        func put(_ bytes: [UInt8], at index: Int) { header.replaceSubrange(index..<index + bytes.count, with: bytes) }
        put(be32(128 + tableSize + data.count), at: 0)
        put([0x02, 0x10, 0, 0], at: 8)                  // version 2.1
        put(Array("mntrRGB XYZ ".utf8), at: 12)         // display class, RGB data, XYZ connection space
        put(be16(2000) + be16(1) + be16(1), at: 24)     // a fixed date, for the same bytes everywhere
        put(Array("acsp".utf8), at: 36)
        put(s15Fixed16(0.9642) + s15Fixed16(1.0) + s15Fixed16(0.8249), at: 68)  // D50
        return Data(header + table + data)
    }()

    private static let gamma: [UInt8] = Array("curv".utf8) + be32(0) + be32(1) + be16(563)  // 563/256 as u8Fixed8

    private static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        Array("XYZ ".utf8) + be32(0) + s15Fixed16(x) + s15Fixed16(y) + s15Fixed16(z)
    }

    private static func text(_ s: String) -> [UInt8] { Array("text".utf8) + be32(0) + Array(s.utf8) + [0] }

    /// A version 2 textDescriptionType: ASCII, then empty Unicode and ScriptCode parts.
    private static func description(_ s: String) -> [UInt8] {
        Array("desc".utf8) + be32(0) + be32(s.utf8.count + 1) + Array(s.utf8) + [0] + be32(0) + be32(0) + be16(0) + [0]
            + [UInt8](repeating: 0, count: 67)
    }

    private static func s15Fixed16(_ v: Double) -> [UInt8] { be32(Int(Int32((v * 65536).rounded()))) }
    private static func be32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, Array.init) }
    private static func be16(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, Array.init) }
}
