import Foundation
import PrintHelpers
import PrintModel
import PrintOptions
import PrintSupport

/// Runs swiftprint-raster, which draws a job's PDF as PWG or Apple raster
/// (`RasterDocumentWriter`) in a process of its own, as cups-filters draws raster in
/// pdftoraster after pdftopdf: poppler reads the job's pages (an input PDF's among them)
/// outside the process that read the documents, under the helpers' limits; a crash in it fails
/// the job with a reason; and the drawing's peak memory is poppler's and the bands', not added
/// to everything the job loaded to make the PDF (qpdf, pango, libmagic, the handlers).
package enum RasterHelperProcess {
    static let name = "swiftprint-raster"
    /// A path that replaces the installed helper (tests, a build tree).
    static let override = "SWIFTPRINT_RASTER_HELPER"

    /// The installed helper, or the error saying it is missing: asked before a raster job
    /// reads its documents, so that a job that cannot be drawn fails before the work.
    package static func locate() throws -> String {
        guard let helper = Installation.helper(name, override: override) else {
            throw PrintError(.notAvailable, "cannot draw raster output: \(name) is not installed beside swiftprint")
        }
        return helper
    }

    /// Draws the PDF at `pdf` (of `pages` pages) with `settings`. Its bytes go to `sink` as
    /// they come; `sheetWritten` gets each sheet's number once the sheet's bytes are in the
    /// sink. Limits (`ChildProcess.Limits(helper:sheets:)`): its memory is `helper-memory`; its
    /// clock `helper-timeout` from the start or the last sheet (a thousand-page job may take
    /// longer than one document's helper, and a helper that stops drawing is still stopped),
    /// not counting the time the output takes to be written; its processor time that clock once
    /// a page. Returns the sheets written.
    package static func draw(pdf: String, pages: Int, settings: RasterSettings, limits: JobLimits,
                             to sink: (UnsafeRawBufferPointer) throws -> Void, sheetWritten: (Int) throws -> Void) throws -> Int {
        let helper = try locate()
        let requestFile = try OutputFile.scratch(prefix: name + "-request-")
        defer { requestFile.removeScratch() }
        HelperLine.encode(RasterHelperRequest(input: pdf, task: settings)).withUnsafeBytes { requestFile.write($0) }
        try requestFile.commit()
        var reader = RasterHelperStream.Reader()
        var sheets = 0
        let result = try ChildProcess.run(helper, [], limits: ChildProcess.Limits(helper: limits, sheets: pages),
                                          input: requestFile.scratchPath!) { part in
            try reader.take(part, bytes: sink, sheet: { number in
                // Sheets come in order, each once: anything else is not the helper's stream.
                guard number == sheets + 1 else {
                    throw PrintError(.renderingFailed, "\(name) reported sheet \(number) after sheet \(sheets)")
                }
                sheets = number
                try sheetWritten(number)
            })
        }
        if case .seconds(let s)? = result.crossedLimit {
            throw JobLimits.crossed(LimitOptions.helperTimeout, path: nil, "\(name) drew no sheet for \(String(format: "%g", s)) s and was stopped")
        }
        if let crossed = result.limitError(name, path: nil, clock: LimitOptions.helperTimeout) { throw crossed }
        guard !result.signalled, !reader.isInsideFrame, let line = reader.reply,
              let reply = try? JSONDecoder().decode(HelperReply<Int>.self, from: line) else {
            throw result.endedWithoutReply(name, path: nil, wrote: reader.reply.map { "\($0.count) bytes" })
        }
        if let failure = reply.failure { throw failure.error }
        guard let answer = reply.answer, answer == sheets else {
            throw PrintError(.renderingFailed, "\(name) replied \(reply.answer.map(String.init) ?? "nothing") sheets, having sent \(sheets)")
        }
        return sheets
    }
}
