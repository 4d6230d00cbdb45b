import Foundation
import TestSupport
import Testing

/// The layers, read from the code: every `import` of one of the package's own modules must reach
/// a layer below the importer's (SwiftPM only refuses cycles; this refuses a layer reaching up),
/// and each C library is imported only by the modules that own it.
@Suite struct LayeringTests {
    /// The package's Swift modules, lowest first. A module may import those in earlier rows only;
    /// modules in one row do not import each other.
    static let layers: [[String]] = [
        ["PrintModel"],                 // paper, print info, page ranges, errors: no C, no I/O beyond files
        ["PrintSupport", "PrintHelpers"], // files, scratch files, child processes, engine libraries; the helpers' protocol
        ["ContentDetection"],           // libmagic, the type catalogue, sniffers, the spooled input
        ["PDFObjects", "CUPSLibrary"],  // qpdf's documents and poppler's repair; libcups, opened at run time
        ["PrintGraphics"],              // cairo, pango, fonts, placed content
        ["PrintOptions"],               // option declarations and typed settings
        ["PageLayout"],                 // formatters, page renderers, the handler protocol
        ["PDFOutput", "RasterOutput"],  // writers, sheet planning, imposition; PWG and Apple raster
        ["HandlerSupport", "SwiftPrintDocument"], // the layers above and the helper runner, for handlers; the document model
        ["PixbufDecoding"],             // gdk-pixbuf, for the BMP decoder and map tiles
        ["ImageProtocol", "MapProtocol", "MarkupProtocol"], // what a handler and its helper say to each other
        ["TextHandler", "PDFHandler", "ImageHandler", "ImageDecoders", "MarkupHandler", "MapEngine", "MapHandler",
         "RasterHandler"],
        ["PrintJobs"],                  // the dispatcher, the paginator, a job
        ["CUPSCommon"],                 // what cupsd's programs and the installer share: message lines, the spool URI
        ["CUPSClient", "CUPSQueue"],
        ["CUPSBackend"],               // the backend
        ["SwiftPrint"],                 // the public library
        ["CUPSFilter"],                 // the CUPS filter
        ["swiftprint", "swiftprint-filter", "swiftprint-backend", "swiftprint-relay", "swiftprint-image", "swiftprint-map", "swiftprint-markup",
         "swiftprint-raster", "swiftprint-center",
         "swiftprint-make-basemap", "recipe-example", "receipt-example", "notes-example"],
        ["FuzzTargets"],                // a fuzz target for every parser of untrusted bytes
        ["swiftprint-fuzz"],            // libFuzzer's program, and the replay of findings
    ]

    /// C modules and the Swift modules that may import them: one owner each, where it is so today.
    /// (cairo is still called directly by the SVG decoder, which hands librsvg a cairo surface, and
    /// by the basemap tool: listed so that the list cannot grow.)
    static let cOwners: [String: Set<String>] = [
        "CMagic": ["ContentDetection"],
        "CQPDF": ["PDFObjects"],
        "CPDFRepair": ["PDFObjects"],
        "CPango": ["PrintGraphics"],
        "CCairo": ["PrintGraphics", "ImageDecoders", "swiftprint-make-basemap"],
        "CPangoShim": ["PrintGraphics"],
        "CFontSubset": ["PrintGraphics"],
        // And cupsd's programs' own end with cupsd (SchedulerLifetime): the backend stays free of
        // Foundation, which PrintSupport brings.
        "CSpawnShim": ["PrintSupport", "CUPSCommon"],
        "CUchardet": ["TextHandler"],
        "CPNGShim": ["ImageHandler"],
        "CTIFFShim": ["ImageDecoders"], "CGif": ["ImageDecoders"], "CWebP": ["ImageDecoders"], "CHeifShim": ["ImageDecoders"],
        "CRsvg": ["ImageDecoders"],
        "CGdkPixbuf": ["PixbufDecoding"],
        "CCurlShim": ["MapEngine"],
        "CWebKitShim": ["swiftprint-markup"],
        "CCupsShim": ["CUPSLibrary"],
        "CPopplerGlibShim": ["PrintGraphics"],
        "CLcmsShim": ["PrintGraphics"],
        "CXattr": ["SwiftPrintDocument", "CUPSBackend"],
    ]

    /// Each library and executable target's folder, read from Package.swift (`path:`, else
    /// Sources/NAME); test targets are left out.
    static func targetFolders() throws -> [String: String] {
        try targetDeclarations().mapValues(\.folder)
    }

    /// Each library and executable target's folder and the text of its declaration (from its
    /// `.kind(` to the next), read from Package.swift; test targets are left out.
    static func targetDeclarations() throws -> [String: (folder: String, text: String)] {
        let manifest = try String(contentsOfFile: packageRoot + "/Package.swift", encoding: .utf8)
        var found: [String: (folder: String, text: String)] = [:]
        let starts = manifest.matches(of: /\.(target|executableTarget|testTarget|systemLibrary)\(/)
        for (n, start) in starts.enumerated() where start.1 != "testTarget" {
            let declaration = manifest[start.range.upperBound..<(n + 1 < starts.count ? starts[n + 1].range.lowerBound : manifest.endIndex)]
            guard let name = declaration.firstMatch(of: /name: "([^"]+)"/)?.1 else { continue }
            let folder = declaration.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) } ?? "Sources/\(name)"
            if !folder.hasPrefix("Tests/") { found[String(name)] = (folder, String(declaration)) }
        }
        return found
    }

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Module → the modules its Swift files import.
    static func imports() throws -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for (module, folder) in try targetFolders() {
            let root = packageRoot + "/" + folder
            guard let files = FileManager.default.enumerator(atPath: root) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    if let m = line.firstMatch(of: /^(?:@_exported |@testable |@preconcurrency )?import ([A-Za-z_][A-Za-z0-9_]*)$/) {
                        result[module, default: []].insert(String(m.1))
                    }
                }
            }
        }
        return result
    }

    @Test func noModuleImportsOneAboveIt() throws {
        let level = Dictionary(uniqueKeysWithValues: Self.layers.enumerated().flatMap { i, row in row.map { ($0.replacingOccurrences(of: "-", with: "_"), i) } })
        let imports = try Self.imports()
        #expect(imports.count > 30, "read the imports of \(imports.count) modules")
        for (module, imported) in imports {
            let c99 = module.replacingOccurrences(of: "-", with: "_")
            guard let mine = level[c99] else {
                Issue.record("\(module) is in no layer: add it to LayeringTests.layers")
                continue
            }
            for other in imported {
                guard let theirs = level[other] else { continue }
                #expect(theirs < mine, "\(module) (layer \(mine)) imports \(other) (layer \(theirs))")
            }
        }
    }

    @Test func eachCLibraryHasItsOwners() throws {
        for (module, imported) in try Self.imports() {
            for c in imported where c.hasPrefix("C") && Self.cOwners[c] != nil {
                #expect(Self.cOwners[c]!.contains(module), "\(module) imports \(c), owned by \(Self.cOwners[c]!.sorted())")
            }
        }
    }

    /// The core (`Sources/`) knows nothing of WebKit: neither its libraries nor what the markup
    /// plugin and its renderer say to each other. Markup is a plugin like the others; only the
    /// public library (`SwiftPrint`), which registers every handler, names its handler.
    @Test func theCoreKnowsNothingOfWebKit() throws {
        let webKit: Set<String> = ["CWebKit", "CWebKitShim", "CGtkUnixPrint", "MarkupProtocol", "MarkupHandler"]
        let imports = try Self.imports()
        var core = 0
        for (module, declaration) in try Self.targetDeclarations() where declaration.folder.hasPrefix("Sources/")
            && !declaration.folder.hasPrefix("Sources/C/") && module != "SwiftPrint" {
            core += 1
            let imported = imports[module] ?? []
            #expect(imported.isDisjoint(with: webKit), "\(module), of the core, imports \(imported.intersection(webKit).sorted())")
            // A dependency links the plugin even where no file imports it.
            for name in webKit { #expect(!declaration.text.contains("\"\(name)\""), "\(module), of the core, depends on \(name)") }
        }
        #expect(core > 15, "read \(core) core modules")
    }

    /// HandlerSupport is the handlers' one import (graphics, layout, the helper runner): a
    /// printer client, a queue or a front end that imports it links what only handlers need.
    /// Handlers (Plugins/) import it; so do the public library, which re-exports it for apps
    /// that write their own handlers, and the fuzz targets, which drive the handlers' parsers.
    @Test func onlyHandlersImportHandlerSupport() throws {
        let folders = try Self.targetFolders()
        let allowed: Set<String> = ["SwiftPrint", "FuzzTargets"]
        for (module, imported) in try Self.imports() where imported.contains("HandlerSupport") {
            #expect(folders[module]?.hasPrefix("Plugins/") == true || allowed.contains(module), "\(module) is no handler and imports HandlerSupport")
        }
        for (module, declaration) in try Self.targetDeclarations()
        where !(declaration.folder.hasPrefix("Plugins/") || allowed.contains(module) || module == "HandlerSupport") {
            #expect(!declaration.text.contains("\"HandlerSupport\""), "\(module) is no handler and depends on HandlerSupport")
        }
    }

    /// One place opens libraries at run time: CLibraryLoader, with its flags and messages. The
    /// one exception is the zlib interposer preloaded into WebKit's processes, which finds the
    /// zlib already loaded there (RTLD_NOLOAD) and opens nothing.
    @Test func onlyTheLoaderOpensLibraries() throws {
        var read = 0
        for folder in ["Sources", "Plugins", "Fuzz"] {
            guard let files = FileManager.default.enumerator(atPath: Self.packageRoot + "/" + folder) else { continue }
            for case let file as String in files where [".c", ".cpp", ".h", ".swift"].contains { file.hasSuffix($0) } {
                let path = folder + "/" + file
                guard !path.hasPrefix("Sources/C/CLibraryLoader/"), !path.hasPrefix("Sources/C/CWebPrintDeflateShim/") else { continue }
                read += 1
                let text = try String(contentsOfFile: Self.packageRoot + "/" + path, encoding: .utf8)
                #expect(!text.contains("dlopen("), "\(path) calls dlopen: open the library through CLibraryLoader")
            }
        }
        #expect(read > 100, "read \(read) files")
    }

    /// Files a reader can hold (at most 400 lines) and functions with names for their steps (at
    /// most 80 lines), but for a hot loop that says so above it (kept whole so that its state
    /// lives in locals).
    @Test func filesAndFunctionsStayShort() throws {
        var functions = 0
        for folder in ["Sources", "Plugins", "Fuzz"] {
            guard let files = FileManager.default.enumerator(atPath: Self.packageRoot + "/" + folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let lines = try String(contentsOfFile: Self.packageRoot + "/\(folder)/\(file)", encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count <= 401, "\(folder)/\(file) has \(lines.count) lines")
                for (n, line) in lines.enumerated() where line.contains(/^\s*(@\w+ )*((public|package|private|fileprivate|static|final|override|mutating|nonisolated) )*(func |init[?!]?[(<])/) {
                    functions += 1
                    let length = Self.bodyLength(lines, from: n)
                    let above = lines[max(0, n - 4)..<n].joined(separator: " ")
                    #expect(length <= 80 || above.contains("hot loop"), "\(folder)/\(file):\(n + 1) is \(length) lines: name its steps")
                }
            }
        }
        #expect(functions > 1000, "read \(functions) functions")
    }

    /// The lines from a declaration to the brace that closes its body (braces in strings and
    /// comments left out).
    static func bodyLength(_ lines: [Substring], from start: Int) -> Int {
        var depth = 0, opened = false
        for n in start..<lines.count {
            let code = lines[n].replacing(/"(?:[^"\\]|\\.)*"/, with: "\"\"").replacing(/\/\/.*/, with: "")
            for c in code {
                if c == "{" { depth += 1; opened = true } else if c == "}" { depth -= 1 }
            }
            if opened && depth <= 0 { return n - start + 1 }
        }
        return lines.count - start
    }

    @Test func everyModuleHasALayer() throws {
        let swiftTargets = try Self.targetFolders().filter { name, folder in
            !name.hasPrefix("C")
        }
        let layered = Set(Self.layers.joined())
        #expect(Set(swiftTargets.keys).subtracting(layered).isEmpty, "no layer: \(Set(swiftTargets.keys).subtracting(layered).sorted())")
    }

    /// Each place the compiler is told to trust the code with concurrency (`@unchecked Sendable`,
    /// `nonisolated(unsafe)`) says on the line above why it is safe (`// Safe: …`), and there
    /// are few of them: state that can be guarded by a `Mutex` or kept on one actor is.
    @Test func everyUncheckedConcurrencySaysWhyItIsSafe() throws {
        var found: [String] = []
        for folder in ["Sources", "Plugins", "Fuzz"] {
            guard let files = FileManager.default.enumerator(atPath: Self.packageRoot + "/" + folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let lines = try String(contentsOfFile: Self.packageRoot + "/\(folder)/\(file)", encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                for (n, line) in lines.enumerated() where line.contains("nonisolated(unsafe)") || line.contains("@unchecked Sendable") {
                    guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                    found.append("\(folder)/\(file):\(n + 1)")
                    // The comment may sit above the declaration's own doc comment or attributes.
                    let above = lines[max(0, n - 4) ..< n].map { $0.trimmingCharacters(in: .whitespaces) }
                    #expect(above.contains { $0.hasPrefix("// Safe:") }, "\(folder)/\(file):\(n + 1) does not say why it is safe")
                }
            }
        }
        #expect(found.count <= 10, "\(found.count) unchecked places: \(found)")
    }
}
