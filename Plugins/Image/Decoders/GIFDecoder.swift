import CGif
import Foundation
import HandlerSupport

/// GIF through giflib: the first frame by default, every frame (each on its own page, composed
/// as a browser shows the animation) when asked.
package enum GIFDecoder {
    /// The frames to print and the canvas size, read (and checked) now.
    package static func open(path: String, allFrames: Bool, limits: ImageLimits) throws -> [DecodedImage] {
        let gif = try GIFFile(path: path, limits: limits)
        let frames = allFrames ? gif.frameCount : min(1, gif.frameCount)
        try limits.check(images: frames, kind: "GIF", path: path)
        guard frames > 0 else { throw PrintError(.invalidInput, path: path, "the GIF has no frames") }
        return (0..<frames).map { frame in
            DecodedImage(width: gif.width, height: gif.height) { try GIFFile(path: path, limits: limits).compose(upTo: frame) }
        }
    }
}

/// The one owner of a decoded giflib file.
package final class GIFFile {
    private let file: UnsafeMutablePointer<GifFileType>
    package let path: String

    package init(path: String, limits: ImageLimits) throws {
        self.path = path
        var error: Int32 = 0
        guard let f = DGifOpenFileName(path, &error) else { throw Self.error(path, error) }
        // The screen size is known before any frame is read: check it before giflib allocates.
        do { try limits.check(width: Int(f.pointee.SWidth), height: Int(f.pointee.SHeight), path: path) } catch {
            DGifCloseFile(f, nil)
            throw error
        }
        guard DGifSlurp(f) == GIF_OK else {
            let e = f.pointee.Error
            DGifCloseFile(f, nil)
            throw Self.error(path, e)
        }
        file = f
    }

    deinit { DGifCloseFile(file, nil) }

    package var width: Int { Int(file.pointee.SWidth) }
    package var height: Int { Int(file.pointee.SHeight) }
    package var frameCount: Int { Int(file.pointee.ImageCount) }

    /// The canvas after frames 0…`last` are drawn (transparent where nothing is).
    package func compose(upTo last: Int) throws -> DecodedPixels {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0...last {
            let saved = file.pointee.SavedImages[index]
            let d = saved.ImageDesc
            guard let map = d.ColorMap ?? file.pointee.SColorMap, let raster = saved.RasterBits else {
                throw PrintError(.invalidInput, path: path, "not a valid GIF (a frame has no colours)")
            }
            var gcb = GraphicsControlBlock()
            let transparent = DGifSavedExtensionToGCB(file, Int32(index), &gcb) == GIF_OK ? Int(gcb.TransparentColor) : -1
            let colors = map.pointee.Colors!
            let colorCount = Int(map.pointee.ColorCount)
            let before = index < last && gcb.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            for y in 0..<Int(d.Height) {
                let cy = Int(d.Top) + y
                guard cy >= 0, cy < height else { continue }
                for x in 0..<Int(d.Width) {
                    let cx = Int(d.Left) + x
                    guard cx >= 0, cx < width else { continue }
                    let c = Int(raster[y * Int(d.Width) + x])
                    guard c != transparent, c < colorCount else { continue }
                    let o = (cy * width + cx) * 4
                    canvas[o] = colors[c].Red; canvas[o + 1] = colors[c].Green; canvas[o + 2] = colors[c].Blue; canvas[o + 3] = 255
                }
            }
            if index < last {
                // What the frame leaves for the next one.
                if gcb.DisposalMode == DISPOSE_BACKGROUND {
                    // The frame's part of the canvas, which may be none of it (a frame placed
                    // outside the canvas once stopped the decoder: found by fuzzing).
                    let top = max(0, Int(d.Top)), left = max(0, Int(d.Left))
                    let rows = top ..< max(top, min(height, Int(d.Top) + Int(d.Height)))
                    let columns = left ..< max(left, min(width, Int(d.Left) + Int(d.Width)))
                    for y in rows {
                        for x in columns {
                            for b in 0..<4 { canvas[(y * width + x) * 4 + b] = 0 }
                        }
                    }
                } else if let before { canvas = before }
            }
        }
        return DecodedPixels(width: width, height: height, rgba: canvas)
    }

    static func error(_ path: String, _ code: Int32) -> PrintError {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        if code == D_GIF_ERR_OPEN_FAILED { return PrintError.system(.inputUnreadable, path: path, "cannot open the file", errno: errno) }
        return PrintError(.invalidInput, path: path, "not a valid GIF (\(text.lowercased()))")
    }
}
