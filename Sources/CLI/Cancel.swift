import ArgumentParser
import SwiftPrint

/// Cancels jobs, like `cancel` of CUPS.
struct Cancel: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cancel print jobs.",
        discussion: """
        Examples:
          swiftprint cancel 42
          swiftprint cancel --all -d Office
        """
    )

    @Argument(help: "The jobs to cancel (their numbers, as swiftprint jobs shows them).")
    var jobs: [Int] = []

    @Flag(help: "Cancel all your unfinished jobs (on the printer given with -d, or on every printer).")
    var all = false

    @Option(name: .short, help: ArgumentHelp("With --all: only jobs on this printer.", valueName: "printer"),
            completion: .custom(Completion.printers))
    var destination: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if jobs.isEmpty && !all { throw ValidationError("name the jobs to cancel, or --all") }
        if !jobs.isEmpty && all { throw ValidationError("name jobs or --all, not both") }
        if destination != nil && !all { throw ValidationError("-d goes with --all") }
    }

    func run() throws {
        global.bootstrapLogging()
        do {
            if all {
                let ids = try PrintCenter.cancelAll(on: destination)
                if !global.quiet { print(ids.isEmpty ? "No unfinished jobs to cancel." : "Cancelled \(ids.map(String.init).joined(separator: ", ")).") }
            } else {
                for id in jobs { try PrintCenter.cancel(job: id) }
            }
        } catch let e as PrintError { throw fail(e) }
    }
}
