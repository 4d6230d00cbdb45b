// Printing a receipt from a server: an order becomes a short receipt (plain text, cut from the
// roll just below its last line on a receipt printer, or on A6 where the printer has no roll)
// and goes to a printer with the UIKit-style completion handler, so a request handler can answer
// "printed" or say why not.
//
//   receipt-example PRINTER           print, and wait for the printer's answer
//   receipt-example -o receipt.pdf    write the PDF instead
import Foundation
import SwiftPrint

struct Order {
    let number: Int
    let lines: [(item: String, count: Int, cents: Int)]
    var total: Int { lines.reduce(0) { $0 + $1.count * $1.cents } }
}

func receipt(for order: Order) -> String {
    func money(_ cents: Int) -> String { String(format: "%d.%02d", cents / 100, cents % 100) }
    var text = "CORNER CAFÉ\nOrder \(order.number)\n\n"
    for line in order.lines {
        let left = "\(line.count) × \(line.item)"
        text += left.padding(toLength: 24, withPad: " ", startingAt: 0) + money(line.count * line.cents).leftPadded(to: 8) + "\n"
    }
    text += String(repeating: "-", count: 32) + "\n"
    text += "TOTAL".padding(toLength: 24, withPad: " ", startingAt: 0) + money(order.total).leftPadded(to: 8) + "\nThank you!\n"
    return text
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

let order = Order(number: 1042, lines: [("Flat white", 2, 350), ("Croissant", 1, 280), ("Apple tart", 1, 450)])
let text = receipt(for: order)
let formatter = SimpleTextPrintFormatter(text: text)
formatter.font = Font("DejaVu Sans Mono 9")!
// Six lines to the inch: each line takes 12 points, so the receipt's length is known.
formatter.style.linesPerInch = 6

/// On a roll printer, asked where to cut (UIKit's cutLengthFor:): the roll's own margins, the
/// receipt's lines, and one blank line so that the cutter clears the text.
final class ReceiptCutter: PrintInteractionControllerDelegate {
    let lines: Int
    init(lines: Int) { self.lines = lines }
    func printInteractionController(_ controller: PrintInteractionController, cutLengthFor paper: PrintPaper) -> Double? {
        paper.margins.top + paper.margins.bottom + Double(lines + 1) * 12
    }
}

let controller = PrintInteractionController()
var info = PrintInfo(jobName: "Receipt \(order.number)")
info.media = .a6
controller.printInfo = info
controller.printFormatter = formatter
let cutter = ReceiptCutter(lines: text.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
controller.delegate = cutter

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "-o" {
    do { try controller.write(to: arguments[1]) } catch { print("receipt-example: \(error)"); exit(70) }
    exit(0)
}
guard arguments.count == 1 else { print("usage: receipt-example PRINTER | -o receipt.pdf"); exit(64) }

// A server would answer its request from the completion handler; here we wait for it.
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var answer = ""
controller.print(to: arguments[0]) { completed, error in
    answer = completed ? "printed on \(arguments[0])" : "not printed: \(error.map(String.init(describing:)) ?? "unknown")"
    done.signal()
}
done.wait()
print("order \(order.number): \(answer)")
exit(answer.hasPrefix("printed") ? 0 : 75)
