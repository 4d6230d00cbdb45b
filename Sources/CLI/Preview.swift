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
          swiftprint preview report.pdf --page 1-12 -o 'side-%d.png'

        With all or A-B, the job's number of sides is printed on standard output.
        """ + "\n\n" + JobFlagsHelp.text
    )

    @Option(name: .shortAndLong, help: "The PNG to write; - writes standard output. With --page all, a name holding %d, which becomes each side's number.")
    var output: String

    @Option(help: ArgumentHelp("The side to show, from 1; all: every side, each its own PNG; A-B: sides A to B, those the job has (its number of sides is printed).",
                               valueName: "n|all|a-b"))
    var page: Side = .number(1)

    /// One side, every side of the job, or the sides from one to another.
    enum Side: ExpressibleByArgument, Equatable {
        case number(Int), all, range(ClosedRange<Int>)
        init?(argument: String) {
            if argument == "all" { self = .all; return }
            if let n = Int(argument) { self = .number(n); return }
            let ends = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard ends.count == 2, let a = ends[0], let b = ends[1], a >= 1, a <= b else { return nil }
            self = .range(a...b)
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
        case .all, .range:
            guard output.components(separatedBy: "%d").count == 2 else {
                throw ValidationError("--page all and --page A-B write one PNG a side: -o names them with one %d (side-%d.png)")
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
            case .all, .range:
                let sides = if case .range(let asked) = page { asked.clamped(to: 1...max(1, report.sheetsWritten)) } else { 1...max(1, report.sheetsWritten) }
                if case .range(let asked) = page, asked.lowerBound > report.sheetsWritten {
                    throw PrintError(.invalidOption, "--page \(asked.lowerBound)-\(asked.upperBound): the job prints \(report.sheetsWritten) side\(report.sheetsWritten == 1 ? "" : "s")")
                }
                let rasterizer = try PDFRasterizer(path: pdf)
                for side in sides where side <= report.sheetsWritten {
                    try rasterise(rasterizer, side: side, to: output.replacingOccurrences(of: "%d", with: String(side)))
                }
                // How many sides the job has, drawn or not: what a caller shows beside them.
                print(report.sheetsWritten)
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
