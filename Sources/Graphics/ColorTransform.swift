import CLcmsShim
import Foundation
import PrintModel

/// A colour transform by Little CMS from the pixels of a raster canvas (sRGB, or drawn in the
/// colours of another RGB profile) to the colour space of an ICC profile (a printer's CMYK).
/// lcms2 is opened on first use (CLcmsShim says why). The one owner of its lcms transform.
package final class ColorTransform {
    package enum Output { case cmyk8, cmyk16 }

    private let transform: UnsafeMutableRawPointer

    /// `canvas`: the RGB ICC profile the canvas is drawn in (nil: sRGB); `profile`: the target
    /// ICC profile's bytes; `name` says which profile in errors (a file's path).
    package init(from canvas: Data? = nil, toProfile profile: Data, named name: String, output: Output, intent: RenderingIntent = .auto) throws {
        try LittleCMS.load()
        let kind: splcms_output
        switch output {
        case .cmyk8: kind = SPLCMS_CMYK_8
        case .cmyk16: kind = SPLCMS_CMYK_16
        }
        var error: UnsafeMutablePointer<CChar>?
        let made = profile.withUnsafeBytes { target in
            (canvas ?? Data()).withUnsafeBytes { source in
                splcms_canvas_transform(canvas == nil ? nil : source.baseAddress, source.count, target.baseAddress, target.count, kind,
                                        intent.iccIntent, intent.blackPointCompensation ? 1 : 0, &error)
            }
        }
        guard let made else { throw PrintError(.invalidOption, path: name, LittleCMS.message(error)) }
        transform = made
    }

    deinit { splcms_free(transform) }

    /// `count` canvas pixels (cairo's 0x00RRGGBB words) into `output`, in the output's samples.
    package func apply(_ pixels: UnsafePointer<UInt32>, count: Int, into output: UnsafeMutableRawPointer) {
        splcms_apply(transform, pixels, output, UInt32(count))
    }
}

/// Little CMS, opened on first use (CLcmsShim says why): what every caller of the shim needs.
enum LittleCMS {
    static func load() throws {
        var loadError: UnsafePointer<CChar>?
        guard splcms_load(&loadError) == 0 else {
            throw PrintError(.notAvailable, loadError.map { String(cString: $0) } ?? "cannot load Little CMS")
        }
    }

    /// The message a shim call left in `error`, which is freed.
    static func message(_ error: UnsafeMutablePointer<CChar>?) -> String {
        defer { free(error) }
        return error.map { String(cString: $0) } ?? "Little CMS failed"
    }
}

extension RenderingIntent {
    /// ICC's number for it (lcms2's INTENT_*).
    var iccIntent: Int32 {
        switch self {
        case .perceptual: 0
        case .auto, .relative, .relativeBPC: 1
        case .saturation: 2
        case .absolute: 3
        }
    }

    var blackPointCompensation: Bool { self == .auto || self == .relativeBPC }
}
