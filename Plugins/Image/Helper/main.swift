// swiftprint-image: decodes one image file (GIF, TIFF, WebP, HEIF, BMP, SVG) into a PDF of one
// page per image, for the image handler, which runs it in its own process: the decoders'
// libraries load only for jobs that need them, and untrusted files are parsed outside the job.
//
//   swiftprint-image INPUT OUTPUT.pdf [--gif-frames all] [--max-pixels N]
//
// Prints each page's resolution (pixels per inch, or "-") on a line of standard output.
// Exit codes as swiftprint's: 65 not a valid image, 66 unreadable, 73/74 output, 69 a library
// cannot be loaded, 64 usage.
import Foundation
import ImageDecoders
import HandlerSupport

var arguments = Array(CommandLine.arguments.dropFirst())
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: swiftprint-image INPUT OUTPUT.pdf [--gif-frames all] [--max-pixels N]\n".utf8))
    exit(64)
}
var allFrames = false
var limits = ImageLimits()
var positional: [String] = []
while let next = arguments.first {
    arguments.removeFirst()
    switch next {
    case "--gif-frames": allFrames = arguments.first == "all"; if !arguments.isEmpty { arguments.removeFirst() }
    case "--max-pixels":
        guard let v = arguments.first.flatMap(Int.init), v > 0 else { usage() }
        limits.maxPixels = v; arguments.removeFirst()
    default: positional.append(next)
    }
}
guard positional.count == 2 else { usage() }
do {
    let ppi = try ImageDecoding.convert(path: positional[0], allGIFFrames: allFrames, limits: limits, output: positional[1])
    print(ppi.map { $0.map { String($0) } ?? "-" }.joined(separator: "\n"))
} catch let error as PrintError {
    FileHandle.standardError.write(Data("\(error.message)\n".utf8))
    switch error.code {
    case .inputUnreadable: exit(66)
    case .invalidInput, .unknownFormat, .noContent: exit(65)
    case .notAvailable: exit(69)
    case .outputFailed: exit(73)
    default: exit(70)
    }
}
