// The recipe renderer of Apple's iOS printing guide, with swiftprint: a header with the author
// on the left and the page number on the right, the recipe's text from a markup formatter with
// per-page insets, and the recipe's photo in the right-hand two inches of page one.
//
//   recipe-example OUTPUT.pdf [--image photo.png] [--printer NAME]
//
// With --printer the recipe goes to that printer (CUPS) and the example waits for the job.
import Foundation
import SwiftPrint

final class RecipePageRenderer: PrintPageRenderer {
    let author: String
    let imagePath: String?
    let headerFont = Font("Sans Bold 10")!

    init(author: String, imagePath: String?) {
        self.author = author
        self.imagePath = imagePath
        super.init()
        headerHeight = 0.5 * 72
    }

    override func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect, context: GraphicsContext) {
        context.draw(author, at: CGPoint(x: headerRect.minX, y: headerRect.minY), font: headerFont)
        let number = "Page \(pageIndex + 1)"
        let width = context.size(of: number, font: headerFont).width
        context.draw(number, at: CGPoint(x: headerRect.maxX - width, y: headerRect.minY), font: headerFont)
        context.setStrokeColor(.gray)
        context.strokeLine(from: CGPoint(x: headerRect.minX, y: headerRect.maxY - 6), to: CGPoint(x: headerRect.maxX, y: headerRect.maxY - 6))
    }

    override func drawContentForPage(at pageIndex: Int, in contentRect: CGRect, context: GraphicsContext) {
        // The photo sits in the right-hand two inches of the first page; the text's per-page
        // insets keep it clear.
        guard pageIndex == 0, let imagePath else { return }
        let side = 2.0 * 72
        do { try context.drawPNG(at: imagePath, in: CGRect(x: contentRect.maxX - side, y: contentRect.minY, width: side, height: side)) }
        catch { FileHandle.standardError.write(Data("recipe-example: \(error)\n".utf8)) }
    }
}

let steps = (1...14).map { n in
    "<li>Step \(n): fold the butter into the flour with a light hand, rest the dough for ten minutes, and keep the kitchen cool so the layers stay apart when the pastry bakes.</li>"
}.joined()
let recipe = """
<html><body style="font-family: serif; font-size: 13pt">
<h1>Apple Tart</h1>
<p>A plain tart of thin apple slices on a crisp pastry, from a family recipe. It serves eight.</p>
<h2>Ingredients</h2>
<ul><li>250 g flour</li><li>125 g cold butter</li><li>1 egg</li><li>6 apples</li><li>50 g sugar</li></ul>
<h2>Method</h2><ol>\(steps)</ol>
<p>Serve warm, with cream.</p>
</body></html>
"""

/// The value after `flag` in `arguments`, removed from them with the flag.
func take(_ flag: String, from arguments: inout [String]) -> String? {
    guard let i = arguments.firstIndex(of: flag), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}
var arguments = Array(CommandLine.arguments.dropFirst())
let imagePath = take("--image", from: &arguments)
let printer = take("--printer", from: &arguments)
let output = arguments.first
if output == nil && printer == nil {
    FileHandle.standardError.write(Data("usage: recipe-example OUTPUT.pdf [--image photo.png] [--printer NAME]\n".utf8))
    exit(64)
}

let formatter = MarkupTextPrintFormatter(markupText: recipe)
// Every page: a little air under the header; on the right, room for the photo's two inches.
formatter.perPageContentInsets = EdgeInsets(top: 12, left: 0, bottom: 0, right: 2.25 * 72)
let renderer = RecipePageRenderer(author: "Grandmother Rose", imagePath: imagePath)
renderer.addPrintFormatter(formatter, startingAtPageAt: 0)

let controller = PrintInteractionController()
var info = PrintInfo(jobName: "Apple Tart")
info.media = .a4
controller.printInfo = info
controller.printPageRenderer = renderer

do {
    if let printer {
        let status = try controller.printAndWait(to: printer)
        print("job \(status.id) on \(printer): \(status.state.rawValue)")
        exit(status.state == .completed ? 0 : 75)
    }
    let report = try controller.write(to: output!)
    print("\(output!): \(report.sheetsWritten) pages")
} catch {
    FileHandle.standardError.write(Data("recipe-example: \(error)\n".utf8))
    exit(70)
}
