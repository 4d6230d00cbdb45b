import ArgumentParser
import Foundation
import SwiftPrint

/// The printer picker: every CUPS destination with its state and what it can do.
struct Printers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the printers CUPS knows, the default marked, with what each supports.",
        discussion: """
        Every CUPS destination: queues, their instances, and IPP Everywhere printers CUPS finds on \
        the network. Each printer is asked for its media (and the media loaded now), sides, colour \
        modes, resolutions and document formats, and for its supplies' levels (toner, ink, waste) \
        as CUPS last heard them from it. The server is the one lp uses (CUPS_SERVER, \
        ~/.cups/client.conf, /etc/cups/client.conf, or the local cupsd).

        Examples:
          swiftprint printers
          swiftprint printers --json | jq -r '.[] | select(.isDefault) | .name'
        """
    )

    @Flag(help: "Print JSON: an array of printers with their capabilities.")
    var json = false

    @Flag(name: .customLong("no-capabilities"), help: "Do not ask each printer what it supports (faster with many network printers).")
    var noCapabilities = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        global.bootstrapLogging()
        let printers: [Printer]
        do { printers = try PrinterDirectory.printers(capabilities: !noCapabilities) } catch let e as PrintError { throw fail(e) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(printers), as: UTF8.self))
            return
        }
        if printers.isEmpty { print("No printers: CUPS at \(CUPSServer.name) has no destinations."); return }
        for p in printers { print(Self.describe(p)) }
    }

    static func describe(_ p: Printer) -> String {
        var state = p.state.rawValue + (p.stateReasons.isEmpty ? "" : " (\(p.stateReasons.joined(separator: ", ")))")
        if !p.isAcceptingJobs { state += ", not accepting jobs" }
        switch p.swiftprintQueue {
        case .saveAsPDF?: state += "; swiftprint queue, saves PDF"
        case .printer?: state += "; swiftprint queue"
        case nil: break
        }
        var lines = ["\(p.isDefault ? "*" : " ") \(p.name)\(p.isDefault ? " (default)" : ""): \(state)"]
        let about = [p.info, p.makeAndModel, p.location, p.deviceURI].compactMap { $0 }.filter { !$0.isEmpty }
        if !about.isEmpty { lines.append("    " + Array(NSOrderedSet(array: about)).map { "\($0)" }.joined(separator: "; ")) }
        if let c = p.capabilities {
            var media = "    media: " + (c.media.isEmpty ? "not said" : Self.list(c.media))
            if let d = c.defaultMedia { media += " (default \(d))" }
            lines.append(media)
            if !c.readyMedia.isEmpty { lines.append("    loaded: " + c.readyMedia.joined(separator: ", ")) }
            lines.append("    sides: " + (c.sides.isEmpty ? "one-sided" : c.sides.joined(separator: ", ")))
            lines.append("    colour: " + (c.colorModes.isEmpty ? "not said" : c.colorModes.joined(separator: ", ")))
            if !c.resolutions.isEmpty { lines.append("    resolutions: " + c.resolutions.joined(separator: ", ")) }
            if !c.documentFormats.isEmpty { lines.append("    formats: " + Self.list(c.documentFormats)) }
            if let n = c.maximumCopies { lines.append("    copies: up to \(n)") }
        } else if let why = p.capabilitiesError {
            lines.append("    capabilities unknown: \(why)")
        }
        if let supplies = p.supplies, !supplies.isEmpty { lines.append("    supplies: " + supplies.map(Self.describe).joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }

    /// `Black 80 %`, `Yellow 8 % (low)`, `Waste toner 95 % (nearly full)`, `Cyan some left`.
    static func describe(_ supply: PrinterSupply) -> String {
        let some = supply.isReceptacle ? "some room left" : "some left"
        let amount = supply.level.map { "\($0) %" } ?? (supply.someRemaining ? some : "level unknown")
        let warning = switch supply.attention {
        case .low?: " (low)"
        case .nearlyFull?: " (nearly full)"
        case nil: ""
        }
        return "\(supply.name) \(amount)\(warning)"
    }

    /// At most a dozen names; --json lists every one.
    static func list(_ names: [String]) -> String {
        names.count <= 12 ? names.joined(separator: ", ") : names.prefix(12).joined(separator: ", ") + " and \(names.count - 12) more"
    }
}
