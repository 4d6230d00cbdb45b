import ArgumentParser
import Foundation
import SwiftPrint

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show one side of a sheet exactly as it will print, as a PNG image.",
        discussion: """
        The job is made as `convert` makes it, with the same options (n-up, booklets, two-sided \
        blank backs, copies and all), and side N of the result is drawn by poppler (in this \
        process, as raster output is) at the resolution asked for.

        Examples:
          swiftprint preview report.pdf --number-up 4 --page 2 -o sheet2.png
          swiftprint preview notes.txt --booklet -o front.png --resolution 150
          swiftprint preview report.pdf --number-up 2 --page all -o 'side-%d.png'
        """ + "\n\n" + JobFlagsHelp.text
    )

    @Option(name: .shortAndLong, help: "The PNG to write; - writes standard output. With --page all, a name holding %d, which becomes each side's number.")
    var output: String

    @Option(help: ArgumentHelp("The side to show, from 1, or all: every side, each its own PNG.", valueName: "n|all"))
    var page: Side = .number(1)

    /// One side, or every side of the job.
    enum Side: ExpressibleByArgument, Equatable {
        case number(Int), all
        init?(argument: String) {
            if argument == "all" { self = .all } else if let n = Int(argument) { self = .number(n) } else { return nil }
        }
    }

    @Option(help: ArgumentHelp("Pixels per inch (default 100).", valueName: "ppi"))
    var resolution = 100

    @OptionGroup var job: JobFlags
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try OutputChoice.checkGivenOnce()
        try OutputChoice.refuseTerminal(output, kind: "a PNG")
        switch page {
        case .number(let n):
            guard n >= 1 else { throw ValidationError("--page counts sides from 1") }
        case .all:
            guard output.components(separatedBy: "%d").count == 2 else {
                throw ValidationError("--page all writes one PNG a side: -o names them with one %d (side-%d.png)")
            }
        }
        guard (1...1200).contains(resolution) else { throw ValidationError("--resolution must be 1 to 1200 pixels per inch") }
    }

    func run() throws {
        global.bootstrapLogging()
        TemporaryFiles.removeOnTerminationSignals()
        do {
            let dispatcher = Dispatcher.standard
            let scratch = try TemporaryFiles.makePrivateDirectory(prefix: "swiftprint-preview-")
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let pdf = scratch + "/job.pdf"
            let settings = try job.settings()
            let report = try DocumentConversion(settings: settings, dispatcher: dispatcher)
                .run(job.printInputs(settings), to: OutputDestination(path: pdf))
            switch page {
            case .number(let n):
                guard n <= report.sheetsWritten else {
                    throw PrintError(.invalidOption, "--page \(n): the job prints \(report.sheetsWritten) side\(report.sheetsWritten == 1 ? "" : "s")")
                }
                try rasterise(try PDFRasterizer(path: pdf), side: n, to: output)
            case .all:
                let rasterizer = try PDFRasterizer(path: pdf)
                for side in stride(from: 1, through: report.sheetsWritten, by: 1) {
                    try rasterise(rasterizer, side: side, to: output.replacingOccurrences(of: "%d", with: String(side)))
                }
            }
        } catch let error as PrintError {
            var e = error
            if e.path == nil, e.code != .outputFailed, e.code != .outputWriteFailed, e.code != .invalidOption { e.path = output }
            throw fail(e)
        }
    }

    /// Side `side` of the job's PDF as PNG, drawn by poppler-glib in this process (the renderer
    /// raster output uses), written like any output: whole, or not at all.
    private func rasterise(_ rasterizer: PDFRasterizer, side page: Int, to output: String) throws {
        let size = rasterizer.pageSize(page - 1)
        let dots = Double(resolution) / 72
        let canvas = try RasterCanvas(width: max(1, Int((size.width * dots).rounded(.up))), height: max(1, Int((size.height * dots).rounded(.up))))
        try rasterizer.render(page: page - 1, onto: canvas, resolution: (resolution, resolution))
        let png = try canvas.pngData()
        let file = try OutputFile(OutputDestination(path: output))
        png.withUnsafeBytes { file.write($0) }
        try file.commit()
    }
}
