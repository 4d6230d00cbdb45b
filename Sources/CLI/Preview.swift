import ArgumentParser
import Foundation
import SwiftPrint

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Show one side of a sheet exactly as it will print, as a PNG image.",
        discussion: """
        The job is made as `convert` makes it, with the same options (n-up, booklets, two-sided \
        blank backs, copies and all), and side N of the result is drawn by poppler at the \
        resolution asked for.

        Examples:
          swiftprint preview report.pdf --number-up 4 --page 2 -o sheet2.png
          swiftprint preview notes.txt --booklet --page 1 -o front.png --resolution 150
        """ + "\n\n" + JobFlagsHelp.text
    )

    @Option(name: .shortAndLong, help: "The PNG to write; - writes standard output.")
    var output: String

    @Option(help: ArgumentHelp("The side to show, from 1.", valueName: "n"))
    var page = 1

    @Option(help: ArgumentHelp("Pixels per inch (default 100).", valueName: "ppi"))
    var resolution = 100

    @OptionGroup var job: JobFlags
    @OptionGroup var global: GlobalOptions

    func validate() throws {
                guard page >= 1 else { throw ValidationError("--page counts sides from 1") }
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
            let report = try DocumentConversion(settings: try job.settings(), dispatcher: dispatcher)
                .run(job.inputs.map(PrintInput.init(path:)), to: OutputDestination(path: pdf))
            guard page <= report.sheetsWritten else {
                throw PrintError(.invalidOption, "--page \(page): the job prints \(report.sheetsWritten) side\(report.sheetsWritten == 1 ? "" : "s")")
            }
            try rasterise(pdf)
        } catch let error as PrintError {
            var e = error
            if e.path == nil, e.code != .outputFailed, e.code != .invalidOption { e.path = output }
            throw fail(e)
        }
    }

    /// Side `page` of `pdf` as PNG, through poppler's pdftoppm, written beside the output and
    /// renamed into place (or copied to standard output).
    private func rasterise(_ pdf: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let pdftoppm = (path.split(separator: ":").map { "\($0)/pdftoppm" } + ["/usr/bin/pdftoppm"])
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw PrintError(.notAvailable, "previews need poppler's pdftoppm (Debian: poppler-utils)")
        }
        let toStdout = output == "-"
        let folder = toStdout ? (pdf as NSString).deletingLastPathComponent : URL(fileURLWithPath: output).deletingLastPathComponent().path
        let root = folder + "/.swiftprint-preview-\(getpid())"
        defer { unlink(root + ".png") }
        let r = try ChildProcess.run(pdftoppm, ["-png", "-r", String(resolution), "-f", String(page), "-l", String(page),
                                                "-singlefile", pdf, root], timeout: 120)
        guard r.status == 0, !r.signalled else {
            throw PrintError(.renderingFailed, "pdftoppm failed: \(r.lastErrorLine)")
        }
        if toStdout {
            FileHandle.standardOutput.write(try Data(contentsOf: URL(fileURLWithPath: root + ".png")))
        } else if rename(root + ".png", output) != 0 {
            throw PrintError.system(.outputFailed, path: output, "cannot write the preview", errno: errno)
        }
    }
}
