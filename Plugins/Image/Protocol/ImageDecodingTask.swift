// swiftprint-image's part of the helper protocol (PrintHelpers): what the image handler asks
// and what the helper answers.

/// swiftprint-image: decode `input` into `output`, one page per image.
package struct ImageDecodingTask: Codable, Sendable {
    /// Every frame of an animated GIF, one per page (else the first).
    package var allGIFFrames: Bool
    /// The decompression-bomb limit.
    package var maxPixels: Int
    /// The most images (pages) one file may hold.
    package var maxImages: Int
    package init(allGIFFrames: Bool, maxPixels: Int, maxImages: Int) {
        self.allGIFFrames = allGIFFrames; self.maxPixels = maxPixels; self.maxImages = maxImages
    }
}

/// swiftprint-image's answer: each page's pixels per inch, when the file states them.
package typealias ImageResolutions = [Double?]
