import CUPSFilter
import CUPSLibrary
import CUPSQueue
import Foundation
import HandlerSupport

// What cupsd and printers hand swiftprint: a job's option string and environment (the filter's
// argv[5], the queue's PPD), and a printer's IPP answer (`install --printer` runs as root and
// makes the queue's PPD from it).

/// The filter's settings for a job, as cupsd runs it (argv: job, user, title, copies, options).
private func filterSettings(options: String, ppd: String?, finalType: String?) throws {
    var environment: [String: String] = [:]
    environment["PPD"] = ppd
    environment["FINAL_CONTENT_TYPE"] = finalType
    _ = try PrintFilter.settings(arguments: ["swiftprint", "7", "fuzz", "title", "1", options], environment: environment)
}

let cupsTargets = [
    FuzzTarget("cups-options", reaches: "libcups's cupsParseOptions, swiftprint's option declarations (every value parser), the filter's checks (split values, refused options)",
               declaredWords: optionWords) { data, _ in
        let text = String(decoding: data, as: UTF8.self)
        let options = try CUPSOptions.parse(text)
        _ = CUPSOptions.allValues(of: "document-name-supplied", in: text)
        // The same words as `swiftprint convert`'s options, then as a job's.
        _ = try? JobSettings(parsing: options, from: .commandLine)
        try filterSettings(options: text, ppd: nil, finalType: nil)
    },
    // The first line is the job's options; the rest is the PPD.
    FuzzTarget("ppd", reaches: "libcups's PPD reader (ppdOpenFile, ppdMarkOptions, cupsRasterInterpretPPD), PrinterCapabilities(ppd:), the filter's raster choice",
               declaredWords: optionWords) { data, scratch in
        let newline = data.firstIndex(of: UInt8(ascii: "\n")) ?? data.startIndex
        let options = String(decoding: data[data.startIndex ..< newline], as: UTF8.self)
        let ppd = scratch.file("printer.ppd", Data(data[min(newline + 1, data.endIndex)...]))
        for finalType in [nil, "image/pwg-raster", "image/urf"] {
            try? filterSettings(options: options, ppd: ppd, finalType: finalType)
        }
        try filterSettings(options: "", ppd: ppd, finalType: "image/pwg-raster")
    },
    FuzzTarget("ipp", reaches: "libcups's ippReadFile (a printer's Get-Printer-Attributes answer), _ppdCreateFromIPP, the queue's PPD, then that PPD as the filter reads it") { data, scratch in
        let attributes = try PrinterAttributes.read(from: scratch.file("printer.ipp", data))
        let formats = attributes.attribute("document-format-supported")?.strings ?? []
        let printer = try PrinterQueueDefinition(name: "fuzz", deviceURI: "ipp://printer.local/ipp/print", cupsPPD: PrinterAttributes.ppd(from: attributes),
                                                 documentFormats: formats, asked: nil, routed: ["application/pdf", "text/plain"])
        let ppd = scratch.file("queue.ppd", Data(printer.ppd.utf8))
        try filterSettings(options: "", ppd: ppd, finalType: nil)
    },
]

/// Every declared option's names, and `name=example` for each.
@Sendable func optionWords() -> [String] {
    JobSettings.declaredOptions.flatMap { option in
        [option.name + "=" + option.example, option.name] + option.aliases
    }
}
