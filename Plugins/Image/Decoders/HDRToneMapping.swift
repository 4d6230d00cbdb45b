import Foundation
import HandlerSupport

/// HDR photos (PQ or HLG: what phones and cameras now save as AVIF, HEIC and JPEG XL) brought to
/// paper, which cannot be brighter than white. Samples become light (cd/m²), light is divided by
/// HDR's reference white (BT.2408: 203 cd/m², the brightness of a white sheet in the scene), so
/// everything up to 0.6 of it is kept as it is and the highlights above are rolled off
/// smoothly toward paper white; the result is written with sRGB's curve over the image's own
/// primaries. Hue is kept: the three channels of a pixel are scaled by one factor, from their
/// largest.
enum HDRToneMapping {
    /// BT.2408's HDR reference white, cd/m².
    static let referenceWhite = 203.0
    /// Below this (relative to reference white) light is printed unchanged; above it, compressed.
    static let knee = 0.6

    /// Tone-maps `samples` (16-bit big-endian, `channels` a pixel, the first `colorChannels` of
    /// them colour; the rest, alpha, is left alone) of full-range `bits`-bit values stored in 16
    /// bits, in `transfer`, to 16-bit samples in sRGB's curve.
    static func apply(_ samples: inout [UInt8], channels: Int, colorChannels: Int, bits: Int, transfer: ColorEncoding.Transfer) {
        let scale = 1 / Double((1 << bits) - 1)
        // A table per input code: light relative to reference white.
        let light: [Double] = (0..<(1 << bits)).map { code in
            let e = Double(code) * scale
            return (transfer == .hlg ? hlgLight(e) : pqLight(e)) / referenceWhite
        }
        let pixelBytes = channels * 2
        let count = samples.count / pixelBytes
        samples.withUnsafeMutableBufferPointer { p in
            light.withUnsafeBufferPointer { light in
                let last = light.count - 1
                func read(_ at: Int) -> Double { light[min(Int(p[at]) << 8 | Int(p[at + 1]), last)] }
                func write(_ v: Double, _ at: Int) {
                    let code = UInt16((sRGBEncode(min(1, v)) * 65535).rounded())
                    p[at] = UInt8(code >> 8); p[at + 1] = UInt8(code & 0xFF)
                }
                for i in 0..<count {
                    let base = i * pixelBytes
                    if colorChannels == 1 {
                        write(curve(read(base)), base)
                        continue
                    }
                    let r = read(base), g = read(base + 2), b = read(base + 4)
                    let m = max(r, g, b)
                    let factor = m > 0 ? curve(m) / m : 0
                    write(r * factor, base); write(g * factor, base + 2); write(b * factor, base + 4)
                }
            }
        }
    }

    /// Relative light `x` (1 = reference white) to paper's 0…1: unchanged below the knee, then an
    /// exponential shoulder that leaves it with the same slope and nears 1 (reference white
    /// prints at 0.85, L* 94; four times it at 0.9999).
    static func curve(_ x: Double) -> Double {
        guard x > knee else { return x }
        let room = 1 - knee
        return knee + room * (1 - exp(-(x - knee) / room))
    }

    /// SMPTE ST 2084's EOTF: a PQ code value (0…1) to cd/m².
    static func pqLight(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(e, 0), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// BT.2100 HLG: a code value (0…1) to scene light, through its reference OOTF (system gamma
    /// 1.2) on a 1000 cd/m² display, to cd/m²; done per channel, as the hue is kept afterwards.
    static func hlgLight(_ e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * 0.17883277, c = 0.5 - 0.17883277 * log(4 * 0.17883277)
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return 1000 * pow(scene, 1.2)
    }

    static func sRGBEncode(_ v: Double) -> Double {
        v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}
