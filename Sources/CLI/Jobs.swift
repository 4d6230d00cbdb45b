import ArgumentParser
import Foundation
import SwiftPrint

/// The Print Center: jobs and how far they got.
struct Jobs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List print jobs: state, pages printed, printer, title.",
        discussion: """
        Your unfinished jobs on every printer by default.

        Examples:
          swiftprint jobs
          swiftprint jobs -d Office --all
        """
    )

    @Option(name: .short, help: ArgumentHelp("Only jobs on this printer.", valueName: "printer"),
            completion: .custom(Completion.printers))
    var destination: String?

    @Flag(help: "Finished jobs too (completed, cancelled, aborted), as far as CUPS keeps them.")
    var all = false

    @Flag(name: .customLong("all-users"), help: "Every user's jobs, not only yours.")
    var allUsers = false

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        let jobs: [JobStatus]
        do { jobs = try PrintCenter.jobs(on: destination, includeFinished: all, allUsers: allUsers) } catch let e as PrintError { throw fail(e) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(jobs), as: UTF8.self))
            return
        }
        if jobs.isEmpty { print("No \(all ? "" : "unfinished ")jobs\(destination.map { " on \($0)" } ?? "")."); return }
        let rows = [["JOB", "PRINTER", "STATE", "PAGES", "USER", "TITLE"]] + jobs.map { j in
            [String(j.id), j.printer, j.state.rawValue, String(j.impressionsCompleted), j.user,
             j.title + (j.message.map { j.state.isFinal && j.state != .aborted ? "" : " — \($0)" } ?? "")]
        }
        let widths = (0..<5).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            print((0..<5).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[5])
        }
    }
}
