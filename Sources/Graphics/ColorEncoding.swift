import CLcmsShim
import Foundation
import PrintModel

/// An image's colour given as numbers rather than as an ICC profile: primaries, white point and
/// transfer curve, as AVIF's and HEIC's `nclx` box (ITU-T H.273 code points) and JPEG XL's colour
/// encoding say it. A PDF knows colour only by ICC profile, so `iccProfile()` makes one.
package struct ColorEncoding: Sendable, Equatable {
    package enum Transfer: Sendable, Equatable {
        /// IEC 61966-2-1.
        case sRGB
        /// BT.709, BT.601 and BT.2020 (one curve).
        case bt709
        case gamma(Double)
        case linear
        /// SMPTE ST 2084, absolute luminance to 10 000 cd/m² (HDR).
        case pq
        /// ARIB STD-B67, BT.2100's hybrid log-gamma (HDR).
        case hlg

        /// Whether samples in it are HDR and must be tone-mapped for paper.
        package var isHDR: Bool { self == .pq || self == .hlg }
    }

    /// Red, green and blue, CIE xy each.
    package var primaries: [Double]
    /// CIE xy.
    package var white: [Double]
    package var transfer: Transfer

    package init(primaries: [Double], white: [Double], transfer: Transfer) {
        self.primaries = primaries; self.white = white; self.transfer = transfer
    }

    package static let d65 = [0.3127, 0.3290]
    package static let bt709Primaries = [0.640, 0.330, 0.300, 0.600, 0.150, 0.060]
    package static let bt2020Primaries = [0.708, 0.292, 0.170, 0.797, 0.131, 0.046]
    package static let sRGB = ColorEncoding(primaries: bt709Primaries, white: d65, transfer: .sRGB)

    /// The transfer of an H.273 `transfer_characteristics` code point; nil for unspecified (2)
    /// and for curves no photo uses (log, xvYCC …), which are then taken as sRGB's.
    package static func transfer(h273 code: Int) -> Transfer? {
        switch code {
        case 1, 6, 14, 15: .bt709
        case 4: .gamma(2.2)
        case 5: .gamma(2.8)
        case 8: .linear
        case 13: .sRGB
        case 16: .pq
        case 18: .hlg
        default: nil
        }
    }

    /// Whether it is sRGB as far as the eye can tell, so that an image in it needs no profile.
    package var isSRGB: Bool {
        transfer == .sRGB && zip(primaries, Self.bt709Primaries).allSatisfy { abs($0 - $1) < 0.002 }
            && zip(white, Self.d65).allSatisfy { abs($0 - $1) < 0.002 }
    }

    /// The ICC profile of samples in this encoding, by Little CMS: RGB, or grey for `channels`
    /// 1. An HDR transfer has no ICC curve: its samples are tone-mapped first (`HDRToneMapping`)
    /// and described with sRGB's curve over the same primaries.
    package func iccProfile(channels: Int) throws -> Data {
        try LittleCMS.load()
        let (curve, gamma): (splcms_curve, Double) = switch transfer {
        case .sRGB, .pq, .hlg: (SPLCMS_CURVE_SRGB, 0)
        case .bt709: (SPLCMS_CURVE_BT709, 0)
        case .gamma(let g): (SPLCMS_CURVE_GAMMA, g)
        case .linear: (SPLCMS_CURVE_LINEAR, 0)
        }
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        let bytes = channels == 1
            ? splcms_gray_profile(white, curve, gamma, &length, &error)
            : splcms_rgb_profile(white, primaries, curve, gamma, &length, &error)
        guard let bytes else {
            throw PrintError(.renderingFailed, "cannot describe the image's colour as an ICC profile: \(LittleCMS.message(error))")
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }
}

/// Colour measured as people see it: CIE L*a*b* by Little CMS, and the CIEDE2000 difference.
package enum CIELab {
    /// The L*a*b* (D50) of 8-bit pixels of `channels` (1 or 3) samples in `profile` (nil: sRGB).
    package static func of(_ pixels: [UInt8], channels: Int, profile: Data?) throws -> [[Double]] {
        var lab = [Double](repeating: 0, count: pixels.count / channels * 3)
        try convert(pixels, channels: channels, profile: profile, to: SPLCMS_TO_LAB, into: &lab)
        return (0..<(lab.count / 3)).map { Array(lab[($0 * 3)..<($0 * 3 + 3)]) }
    }

    /// 8-bit pixels of `channels` samples in `profile` as 8-bit RGB of the profile `rgbProfile`
    /// (nil: sRGB), as Little CMS converts them.
    package static func rgb(of pixels: [UInt8], channels: Int, profile: Data, in rgbProfile: Data? = nil) throws -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: pixels.count / channels * 3)
        try convert(pixels, channels: channels, profile: profile, to: SPLCMS_TO_RGB, rgbProfile: rgbProfile, into: &rgb)
        return rgb
    }

    private static func convert<T>(_ pixels: [UInt8], channels: Int, profile: Data?, to target: splcms_target, rgbProfile: Data? = nil,
                                   into out: inout [T]) throws {
        try LittleCMS.load()
        var error: UnsafeMutablePointer<CChar>?
        let count = UInt32(pixels.count / channels)
        let status = out.withUnsafeMutableBytes { out in
            pixels.withUnsafeBufferPointer { input in
                (profile ?? Data()).withUnsafeBytes { bytes in
                    (rgbProfile ?? Data()).withUnsafeBytes { rgb in
                        splcms_convert(profile == nil ? nil : bytes.baseAddress, bytes.count, Int32(channels), input.baseAddress, target,
                                       rgbProfile == nil ? nil : rgb.baseAddress, rgb.count, out.baseAddress, count, &error)
                    }
                }
            }
        }
        guard status == 0 else { throw PrintError(.renderingFailed, LittleCMS.message(error)) }
    }

    package static func deltaE2000(_ a: [Double], _ b: [Double]) -> Double {
        splcms_delta_e2000(a, b)
    }
}
