import Foundation
import TestSupport
import Testing

/// The examples in Examples/, built with the tests and run as users would run them.
@Suite struct ExampleTests {
    /// The recipe renderer: the header (author left, page number right) on every page, the
    /// photo in the right-hand two inches of page one only, the text beside it.
    @Test func theRecipeHasItsHeaderOnEveryPageAndItsPhotoOnPageOne() throws {
        let dir = try temporaryDirectory()
        let photo = dir + "/tart.png"
        #expect(try Tool.run("convert", ["-size", "288x288", "xc:#803020", photo]).status == 0)
        let out = dir + "/recipe.pdf"
        let r = try Tool.run(Tool.besideTests("recipe-example"), [out, "--image", photo])
        #expect(r.status == 0, "\(r.stderr)")
        let pages = try PDF.pageCount(out)
        #expect(pages >= 2, "the recipe runs over a page")
        for page in 1...pages {
            let words = try PDF.words(out, page: page)
            let author = try #require(words.first { $0.word == "Grandmother" }, "page \(page) has no header")
            let number = try #require(words.last { $0.word == String(page) && $0.yMin < 80 }, "page \(page) has no number")
            #expect(author.xMin < 60 && number.xMax > 500, "author left, number right on page \(page)")
            #expect(try PDF.text(out, first: page, last: page).contains("Page \(page)"))
        }
        // The photo: only page one has it, in the right-hand two inches under the header.
        let images = try Tool.run("pdfimages", ["-list", out]).text.split(separator: "\n").dropFirst(2)
        #expect(images.count == 1 && images.first?.split(separator: " ").first == "1", "\(images)")
        func darkness(page: Int) throws -> Double {
            let g = try PDF.grayPixels(out, page: page, dpi: 50)
            // A4 at 50 dpi: the photo's box is about x 288-388, y 50-150; sample inside it.
            var sum = 0.0, n = 0.0
            for y in 70..<130 { for x in 300..<375 { sum += 255 - Double(g.pixels[y * g.width + x]); n += 1 } }
            return sum / n
        }
        #expect(try darkness(page: 1) > 120, "the photo is on page one, top right")
        #expect(try darkness(page: 2) < 5, "page two's right-hand column stays empty")
        // The text keeps clear of the photo: no word of page one reaches into its two inches.
        let intruders = try PDF.words(out, page: 1).filter { $0.yMin > 80 && $0.yMin < 210 && $0.xMax > 415 }
        #expect(intruders.isEmpty, "\(intruders.map(\.word))")
    }
}
