// swiftprint-image: decodes one image file (GIF, TIFF, WebP, HEIF, AVIF, JPEG XL, BMP, SVG) into a PDF of one
// page per image, for the image handler, which runs it in its own process: the decoders'
// libraries load only for jobs that need them, and untrusted files are parsed outside the job.
//
// It answers one request (HelperRequest<ImageDecodingTask>, one JSON line on standard input)
// with one reply on standard output: each page's resolution (pixels per inch, or null), or the
// failure, typed (PrintHelpers says the protocol).
import Foundation
import HandlerSupport
import ImageDecoders
import ImageProtocol

HelperMain.answerOnce(ImageDecodingTask.self) { request, _ -> ImageResolutions in
    guard let input = request.input, let output = request.output else {
        throw PrintError(.invalidOption, "the request names no input or no output")
    }
    var limits = ImageLimits(maxPixels: request.task.maxPixels)
    limits.maxImages = request.task.maxImages
    return try ImageDecoding.convert(path: input, allGIFFrames: request.task.allGIFFrames, limits: limits, output: output)
}
