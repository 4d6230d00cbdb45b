import CUPSCommon
import CUPSLibrary
import Foundation
import PrintModel

/// One document of a job: a file, the name the printer shows, and its MIME type.
public struct JobDocument: Sendable {
    public var path: String
    public var name: String
    public var format: String
    public init(path: String, name: String, format: String = "application/pdf") {
        self.path = path; self.name = name; self.format = format
    }
}

/// printToPrinter: a job created on a CUPS destination, its documents sent, then closed
/// (`cupsCreateDestJob`, `cupsStartDestDocument`, `cupsWriteRequestData`, `cupsFinishDestDocument`).
public enum JobSubmission {
    /// The printer's capabilities, to check a job's options before anything is sent.
    public static func capabilities(of printer: String?) throws -> (name: String, capabilities: PrinterCapabilities) {
        let list = try CUPSDestinations()
        let index = try list.index(of: printer)
        var capabilities = try CUPSDestinationInfo(list, index).capabilities
        if capabilities.customSizes != nil, !capabilities.isRollFed, let uri = list.option("device-uri", at: index) {
            capabilities.addRoll(fromDeviceAt: uri)
        }
        return (list.name(at: index), capabilities)
    }

    /// Sends `documents` as one job titled `title` to `printer` (the default for nil), with IPP
    /// job options (`media`, `sides`, …); returns the job's id. A job that fails half-way is
    /// cancelled, so no half-sent job prints.
    public static func submit(_ documents: [JobDocument], to printer: String?, title: String,
                              options: [(String, String)]) throws -> Int {
        guard !documents.isEmpty else { throw PrintError(.noContent, "no documents to send") }
        let list = try CUPSDestinations()
        let info = try CUPSDestinationInfo(list, try list.index(of: printer))
        let job = try info.createJob(title: title, options: options)
        do {
            for (i, document) in documents.enumerated() {
                guard let file = FileHandle(forReadingAtPath: document.path) else {
                    throw PrintError.system(.inputUnreadable, path: document.path, "cannot open the file", errno: errno)
                }
                defer { try? file.close() }
                try info.sendDocument(job: job, name: document.name, format: document.format, last: i == documents.count - 1) {
                    try file.read(upToCount: 1 << 16) ?? Data()
                }
            }
        } catch {
            info.cancelJob(job)
            throw error
        }
        return Int(job)
    }
}

extension PrinterCapabilities {
    /// A CUPS queue made from a printer's IPP attributes (`lpadmin -m everywhere`) lists the
    /// lengths a roll printer cuts as plain custom sizes, and no roll source: its PPD has no
    /// word for a roll. So a queue with custom sizes that sends to an IPP printer has the
    /// printer itself asked whether they are a roll (`roll_min_`/`roll_max_`, a roll source).
    /// A printer that does not answer within three seconds is taken for sheet-fed, as its
    /// queue says; the job still prints.
    mutating func addRoll(fromDeviceAt uri: String) {
        let printer = RelayDeviceURI.printerAddress(ofDevice: uri)
        guard printer.hasPrefix("ipp://") || printer.hasPrefix("ipps://"),
              let address = try? PrinterAddress(uri: printer),
              let answer = try? PrinterAttributes.ask(address, timeout: 3) else { return }
        let rolls = (answer.attribute("media-supported")?.strings ?? []).filter { $0.hasPrefix("roll_") }
        let sources = (answer.attribute("media-source-supported")?.strings ?? []).filter { $0.contains("roll") }
        media += rolls.filter { !media.contains($0) }
        mediaSources += sources.filter { !mediaSources.contains($0) }
    }

    /// Why `options` (IPP names and values) cannot print on `printer`, one line each, before
    /// anything is sent: "two-sided printing asked (sides=two-sided-long-edge); Office prints one-sided only".
    /// Options the printer does not list are not judged.
    public func problems(with options: [(String, String)], printer: String) -> [String] {
        var problems: [String] = []
        for (name, value) in options {
            switch name {
            case "sides" where !sides.isEmpty && !sides.contains(value):
                problems.append(value.hasPrefix("two-sided") && !printsTwoSided
                    ? "two-sided printing asked (sides=\(value)); \(printer) prints one-sided only"
                    : "sides=\(value) asked; \(printer) offers \(sides.joined(separator: ", "))")
            case "media" where !media.isEmpty && !media.contains(value):
                // A custom size is fine within the sizes the printer cuts or takes.
                if value.hasPrefix("custom_"), let size = MediaSize.dimensions(of: value), let range = customSizes {
                    if !range.contains(size) {
                        problems.append("media \(value) asked; \(printer) takes sizes from \(Self.name(range.minimum)) to \(Self.name(range.maximum))")
                    }
                } else {
                    problems.append("media \(value) asked; \(printer) takes \(Self.shortList(media))")
                }
            case "print-color-mode" where !colorModes.isEmpty && !colorModes.contains(value):
                problems.append(value == "color" && !printsColor
                    ? "colour asked; \(printer) prints in monochrome only"
                    : "print-color-mode=\(value) asked; \(printer) offers \(colorModes.joined(separator: ", "))")
            case "copies":
                if let maximumCopies, let n = Int(value), n > maximumCopies {
                    problems.append("\(n) copies asked; \(printer) makes at most \(maximumCopies) per job")
                }
            case "printer-resolution" where !resolutions.isEmpty && !resolutions.contains(value):
                problems.append("resolution \(value) asked; \(printer) offers \(resolutions.joined(separator: ", "))")
            default: break
            }
        }
        return problems
    }

    /// `80x600mm`, for messages.
    private static func name(_ size: CGSize) -> String {
        func mm(_ v: Double) -> String { String(format: "%g", (v / Length.pointsPerMillimetre * 10).rounded() / 10) }
        return "\(mm(size.width))x\(mm(size.height))mm"
    }

    private static func shortList(_ names: [String]) -> String {
        names.count <= 6 ? names.joined(separator: ", ") : names.prefix(6).joined(separator: ", ") + " and \(names.count - 6) more"
    }
}
