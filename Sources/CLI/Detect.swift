import ArgumentParser
import Foundation
import SwiftPrint

struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Show how swiftprint sees files: MIME type, UTI, conformance and handler.",
        discussion: """
        Detection uses libmagic, then looks closer where its answer is generic (HTML, GeoJSON, \
        GPX, UTF-16 text), then the file-name extension when it names a more specific type.

        Example:
          swiftprint detect photo.jpg notes.md
          photo.jpg: image/jpeg public.jpeg → public.image → public.data → public.content (handler: image)
        """
    )

    @Argument(help: "Files to look at.")
    var files: [String]

    @Flag(help: "One JSON object per file.")
    var json = false

    func run() throws {
        let dispatcher = Dispatcher.standard
        let detector = dispatcher.detector
        var failed: PrintError?
        for file in files {
            do {
                let detected = try detector.detect(path: file)
                let chain = detected.type.map { detector.catalogue.conformanceChain(of: $0.identifier) } ?? []
                let handler = detected.type.flatMap { dispatcher.handler(for: $0) }?.name
                if json {
                    let object: [String: Any] = ["file": file, "mime": detected.mimeType, "uti": detected.type?.identifier ?? NSNull(),
                                                 "conformsTo": Array(chain.dropFirst()), "handler": handler ?? NSNull(), "method": detected.method]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                } else {
                    let type = chain.isEmpty ? "(unknown type)" : chain.joined(separator: " → ")
                    print("\(file): \(detected.mimeType) \(type) (handler: \(handler ?? "none"); by \(detected.method))")
                }
            } catch let error as PrintError {
                FileHandleStderr.write("swiftprint: \(error)\n")
                failed = error
            }
        }
        if let failed { throw ExitCode(ExitCodes.code(for: failed)) }
    }
}

struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List every printable content type with its MIME types and extensions.",
        discussion: "Types come from Config/types.tsv, /etc/swiftprint/types.tsv and ~/.config/swiftprint/types.tsv."
    )

    @Flag(help: "List types no handler prints yet, too.")
    var all = false

    func run() throws {
        let dispatcher = Dispatcher.standard
        let detector = dispatcher.detector
        let printable = Set(dispatcher.printableUTIs)
        let rows: [[String]] = detector.catalogue.order.compactMap { uti in
            guard let type = detector.catalogue.type(uti), all || printable.contains(uti) else { return nil }
            guard !type.mimeTypes.isEmpty || !type.extensions.isEmpty else { return nil }
            let mimes = type.mimeTypes.joined(separator: ",")
            return [uti, dispatcher.handler(for: type)?.name ?? "none", mimes.isEmpty ? "-" : mimes,
                    type.extensions.map { "." + $0 }.joined(separator: " ")]
        }
        // Each column as wide as its widest cell: a handler's name is never cut.
        let table = [["TYPE", "HANDLER", "MIME TYPES", "EXTENSIONS"]] + rows
        let widths = (0..<3).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            let padded = zip(row.prefix(3), widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            print((padded + [row[3]]).joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
    }
}
