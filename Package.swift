// swift-tools-version:6.0
// swiftprint: the iOS printing model on Linux, over cairo, pango and CUPS.
//
// Layout (see README.md):
//   Sources/C*         one systemLibrary target per C library (module map + one-line header)
//   Sources/CFontSubset  small cuts of very large CFF fonts, so cairo never copies them whole
//   Sources/CQPDF      the assembler engine's C interface: a table of functions, found at run time
//   Sources/CQPDFShim  libqpdf (C++) behind that table: the engine, a shared library of its own
//   Sources/CPDFRepair, CPDFRepairShim  damaged PDFs qpdf cannot rebuild, rewritten by poppler's core
//                      library in a shared library of its own, opened only for such a file
//   Sources/CCurlShim  tile downloads through libcurl, opened at run time by map jobs that need it
//   Sources/CCupsClientShim, CUPSClient  printers, jobs and printToPrinter through libcups, opened at run time
//   Sources/SwiftPrintCore  geometry, paper, PrintInfo, formatters, renderer, paginator, PDF writer
//   Plugins/<Handler>  one target per content type; registered in Sources/SwiftPrint/SwiftPrint.swift
//   Sources/SwiftPrint the public library: re-exports the core and every handler
//   Sources/CUPSQueue, SwiftPrintCUPS, SwiftPrintSpool  the queue's files and installer, the CUPS
//                      filter's logic, the backend's (thin executables: swiftprint-filter, -backend)
//   Sources/swiftprint the command-line tool
// SwiftPM treats a top-level Plugins/ folder as package plugins, so handler targets name their path.
import PackageDescription

let package = Package(
    name: "swiftprint",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SwiftPrint", targets: ["SwiftPrint"]),
        .executable(name: "swiftprint", targets: ["swiftprint"]),
        .executable(name: "swiftprint-image", targets: ["swiftprint-image"]),
        .executable(name: "swiftprint-filter", targets: ["swiftprint-filter"]),
        .executable(name: "swiftprint-backend", targets: ["swiftprint-backend"]),
        .executable(name: "swiftprint-markup", targets: ["swiftprint-markup"]),
        .executable(name: "swiftprint-map", targets: ["swiftprint-map"]),
        // The map engine, for apps that draw maps in their own page renderers (MapPrintFormatter);
        // swiftprint's programs draw maps through swiftprint-map instead.
        .library(name: "SwiftPrintMaps", targets: ["MapHandler"]),
        // The object-level assembler's engine, opened on the first job that assembles a PDF
        // (install it beside the executables): text jobs never load libqpdf and its dependencies.
        .library(name: "SwiftPrintQPDF", type: .dynamic, targets: ["CQPDFShim"]),
        // The damaged-PDF repair engine (poppler), opened only for a PDF qpdf cannot rebuild.
        .library(name: "SwiftPrintPDFRepair", type: .dynamic, targets: ["CPDFRepairShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C libraries
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CUchardet", pkgConfig: "uchardet", providers: [.apt(["libuchardet-dev"])]),
        .systemLibrary(name: "CMagic", pkgConfig: "libmagic", providers: [.apt(["libmagic-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libpng reports errors by longjmp: its shim catches them in C.
        .target(name: "CPNGShim", dependencies: ["CLibPNG"]),
        .systemLibrary(name: "CLibTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // libtiff's varargs getters and error handlers: its shim calls them in C.
        .target(name: "CTIFFShim", dependencies: ["CLibTIFF"]),
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", providers: [.apt(["libheif-dev"])]),
        // libheif is loaded on first use (its HEVC decoder's start-up costs every run ~10 ms).
        .target(name: "CHeifShim", dependencies: ["CHeif"]),
        .systemLibrary(name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // libcups has no pkg-config file on Debian 12: linked by name.
        .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // WebKitGTK and GTK's Unix printing, driven from C (CWebKitShim) by swiftprint-markup only.
        .systemLibrary(name: "CWebKit", pkgConfig: "webkit2gtk-4.1", providers: [.apt(["libwebkit2gtk-4.1-dev"])]),
        .systemLibrary(name: "CGtkUnixPrint", pkgConfig: "gtk+-unix-print-3.0", providers: [.apt(["libgtk-3-dev"])]),
        .target(name: "CWebKitShim", dependencies: ["CWebKit", "CGtkUnixPrint"]),
        // pango's cast macros and a fontconfig preload thread, in C (CPangoShim.h says why).
        .target(name: "CPangoShim", dependencies: ["CPango", "CCairo"], linkerSettings: [.linkedLibrary("fontconfig")]),
        // glibc's GNU-only spawn helpers, for ChildProcess (CSpawnShim.h says why).
        .target(name: "CSpawnShim"),
        // Small cuts of very large CFF fonts for cairo to embed; libharfbuzz-subset is opened on first use.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(
            name: "CFontSubset", dependencies: ["CPango", "CCairo", "CFreeType"],
            linkerSettings: [.linkedLibrary("fontconfig"), .linkedLibrary("pangoft2-1.0"), .linkedLibrary("harfbuzz")]
        ),
        // libqpdf is C++: the object-level assembler reaches it through a table of C functions
        // (CQPDF), filled by CQPDFShim in libSwiftPrintQPDF.so and looked up on first use.
        .target(name: "CQPDF"),
        .systemLibrary(name: "CHarfBuzzSubset", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"])]),
        .target(
            name: "CQPDFShim",
            dependencies: ["CQPDF", "CHarfBuzzSubset"],
            cxxSettings: [.define("POINTERHOLDER_TRANSITION", to: "4")],
            // The engine is C++ only: without these, swiftc links it to the toolchain's
            // libswiftCore.so (a second Swift runtime in a statically linked swiftprint, 2 MB
            // more per job, and a dependency on the toolchain's folder at run time).
            linkerSettings: [.linkedLibrary("qpdf"), .unsafeFlags(["-nostartfiles", "-static-stdlib"])]
        ),

        // poppler's core reads again a damaged PDF qpdf could not rebuild (CPDFRepair says why).
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler", providers: [.apt(["libpoppler-private-dev"])]),
        .target(name: "CPDFRepair"),
        .target(
            name: "CPDFRepairShim",
            dependencies: ["CPDFRepair", "CPoppler"],
            // C++ only, as CQPDFShim: no Swift runtime linked into it.
            linkerSettings: [.linkedLibrary("poppler"), .unsafeFlags(["-nostartfiles", "-static-stdlib"])]
        ),

        // The core, in layers: each imports only the layers above it in this list (LayeringTests
        // reads every import and fails on one that reaches down the list).
        .target(name: "PrintModel", path: "Sources/Model"),
        .target(name: "PrintSupport", dependencies: ["PrintModel", "CSpawnShim"], path: "Sources/Support"),
        .target(name: "ContentDetection", dependencies: ["PrintModel", "PrintSupport", "CMagic"], path: "Sources/Detection"),
        .target(name: "PDFObjects", dependencies: ["PrintModel", "PrintSupport", "CQPDF", "CPDFRepair"], path: "Sources/PDFObjects"),
        .target(name: "PrintHelpers", dependencies: ["PrintModel", "PrintSupport", "PDFObjects"], path: "Sources/Helpers"),
        .target(name: "PrintGraphics", dependencies: ["PrintModel", "PDFObjects", "CCairo", "CPango", "CPangoShim", "CFontSubset"],
                path: "Sources/Graphics"),
        .target(name: "PrintOptions", dependencies: ["PrintModel", "PrintGraphics"], path: "Sources/Options"),
        .target(name: "PageLayout", dependencies: ["PrintModel", "PrintGraphics", "PrintOptions"], path: "Sources/Layout"),
        .target(name: "PDFOutput", dependencies: ["PrintModel", "PrintSupport", "PDFObjects", "PrintGraphics", "CCairo"],
                path: "Sources/Output"),
        // What a content handler builds on, in one import (the layers above, without PrintJobs).
        .target(name: "HandlerSupport", dependencies: ["PrintModel", "PrintSupport", "ContentDetection", "PDFObjects", "PrintHelpers",
                                                       "PrintGraphics", "PrintOptions", "PageLayout", "PDFOutput"]),

        .target(
            name: "TextHandler",
            dependencies: ["HandlerSupport", "CCairo", "CPango", "CUchardet"],
            path: "Plugins/TextHandler"
        ),
        .target(
            name: "PDFHandler",
            dependencies: ["HandlerSupport", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/PDFHandler"
        ),
        .target(
            name: "ImageHandler",
            dependencies: ["HandlerSupport", "CPNGShim", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/ImageHandler"
        ),
        // Decoders for the image formats that need big libraries; run by swiftprint-image in its
        // own process so that other jobs never load them.
        .target(
            name: "ImageDecoders",
            dependencies: ["HandlerSupport", "CTIFFShim", "CGif", "CWebP", "CHeifShim", "CRsvg", "CGdkPixbuf", "CCairo"],
            path: "Plugins/ImageDecoders"
        ),
        .executableTarget(name: "swiftprint-image", dependencies: ["ImageDecoders", "HandlerSupport"]),
        // HTML and Markdown: laid out by WebKit in swiftprint-markup, a process of its own that
        // only markup jobs start; its PDF pages are placed by the assembler like a PDF's.
        .target(
            name: "MarkupHandler",
            dependencies: ["HandlerSupport", .product(name: "Ink", package: "Ink"), .product(name: "Logging", package: "swift-log")],
            path: "Plugins/MarkupHandler"
        ),
        .executableTarget(name: "swiftprint-markup", dependencies: ["MarkupHandler", "HandlerSupport", "CWebKitShim"]),
        // libcurl's variadic setters behind plain C, loaded with dlopen (curl.h only at build time).
        .target(name: "CCurlShim"),
        // Maps: tiles (MBTiles through GRDB, tile folders, http(s) URL templates) under GeoJSON
        // and GPX drawn as vectors. The engine runs in swiftprint-map, a process of its own that
        // only map jobs start (MapProcessHandler runs it), so other jobs never load SQLite,
        // libxml2 or gdk-pixbuf.
        .target(
            name: "MapHandler",
            dependencies: ["HandlerSupport", "CGdkPixbuf", "CCurlShim", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Plugins/MapHandler"
        ),
        .executableTarget(name: "swiftprint-map", dependencies: ["MapHandler", "HandlerSupport", "PrintJobs", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "MapProcessHandler",
            dependencies: ["HandlerSupport", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/MapProcessHandler"
        ),
        // Draws Config/basemap/world.mbtiles from Natural Earth (scripts/make-basemap); not installed.
        .executableTarget(
            name: "swiftprint-make-basemap",
            dependencies: ["MapHandler", "CCairo", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Printers and jobs (the printer picker, printToPrinter, the Print Center): libcups's
        // client side, opened at run time so that `convert` never loads libcups.
        .target(name: "CCupsClientShim"),
        .target(name: "CUPSClient", dependencies: ["HandlerSupport", "CCupsClientShim"]),
        // Job orchestration: the dispatcher, the paginator, one job from inputs to a PDF.
        .target(name: "PrintJobs", dependencies: ["HandlerSupport", .product(name: "Logging", package: "swift-log")], path: "Sources/Jobs"),
        .target(name: "SwiftPrint", dependencies: ["HandlerSupport", "PrintJobs", "TextHandler", "PDFHandler", "ImageHandler", "MarkupHandler",
                                                   "MapProcessHandler", "CUPSClient"]),

        // CUPS: the queue's files and the installer (no libcups, so the CLI does not load it);
        // the filter's logic (libcups for options and the PPD); the backend's and libcups's
        // option parser (it runs as root: it reads its arguments and a byte stream, no content).
        .target(name: "CUPSQueue", dependencies: ["HandlerSupport"]),
        .target(
            name: "SwiftPrintCUPS",
            dependencies: ["SwiftPrint", "CUPSQueue", "SwiftPrintSpool", "CCups", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "SwiftPrintSpool", dependencies: ["CCups"]),
        .executableTarget(name: "swiftprint-filter", dependencies: ["SwiftPrintCUPS"]),
        .executableTarget(name: "swiftprint-backend", dependencies: ["SwiftPrintSpool"]),

        // The command-line tool
        .executableTarget(
            name: "swiftprint",
            dependencies: [
                "SwiftPrint", "CUPSQueue",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Examples/: the recipe renderer of the iOS printing guide and a receipt printed from a
        // server, built and run by the tests.
        .executableTarget(name: "recipe-example", dependencies: ["SwiftPrint"], path: "Examples/Recipe"),
        .executableTarget(name: "receipt-example", dependencies: ["SwiftPrint"], path: "Examples/Receipt"),

        // Tests: they use the real libraries, fonts and poppler's command-line tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Reads the sources: no module imports a layer above its own.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),
        .testTarget(name: "SwiftPrintCoreTests", dependencies: ["SwiftPrint", "MapHandler", "TestSupport", "swiftprint-markup", "swiftprint-map"]),
        // Fixtures/ and Golden/ are read by path, beside the tests.
        .testTarget(name: "TextHandlerTests", dependencies: ["SwiftPrint", "TestSupport"], exclude: ["Fixtures"]),
        // TileServer/: a counting tile server the map tests start (Python, from the test).
        .testTarget(name: "CLITests", dependencies: ["swiftprint", "swiftprint-markup", "swiftprint-map", "recipe-example", "TestSupport"], exclude: ["TileServer", "Golden"]),
        .testTarget(name: "CUPSTests", dependencies: ["SwiftPrintCUPS", "SwiftPrintSpool", "CUPSQueue", "TestSupport",
                                                      "swiftprint", "swiftprint-filter", "swiftprint-backend", "swiftprint-markup", "swiftprint-map",
                                                      "receipt-example", "recipe-example"]),
    ],
    cxxLanguageStandard: .cxx17
)
