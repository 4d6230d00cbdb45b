// swift-tools-version:6.0
// swiftprint: the iOS printing model on Linux, over cairo, pango and CUPS.
//
// Where things are (README.md, "How it is built", draws the layers):
//   Sources/C/          one module per C library: the system libraries, and shims whose headers
//                       say why they exist (macros, varargs, longjmp, C++ engines opened at run time)
//   Sources/Model … Jobs  the core, in layers (the targets below, in order; LayeringTests checks)
//   Plugins/<Type>/     one folder per content type: its handler, and for the types drawn in a
//                       process of their own (Image, Markup, Map) the engine, the helper program
//                       and the protocol the handler and the helper speak (Protocol/)
//   Sources/SwiftPrint  the public library: registers the handlers in one place
//   Sources/Document    the document model (UIDocument's counterpart), a product of its own
//   Sources/CUPS/       Client (printers, jobs), Queue (PPD, installer), Common, Filter, Backend
//   Sources/CLI         the swiftprint command, one file per subcommand
// SwiftPM treats a top-level Plugins/ folder as package plugins, so handler targets name their path.
import PackageDescription

let package = Package(
    name: "swiftprint",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SwiftPrint", targets: ["SwiftPrint"]),
        // UIDocument's counterpart (a document in a file: safe saves, autosave, conflicts), for
        // apps that want it without printing; SwiftPrint re-exports it.
        .library(name: "SwiftPrintDocument", targets: ["SwiftPrintDocument"]),
        .executable(name: "swiftprint", targets: ["swiftprint"]),
        .executable(name: "swiftprint-image", targets: ["swiftprint-image"]),
        .executable(name: "swiftprint-filter", targets: ["swiftprint-filter"]),
        .executable(name: "swiftprint-backend", targets: ["swiftprint-backend"]),
        .executable(name: "swiftprint-relay", targets: ["swiftprint-relay"]),
        .executable(name: "swiftprint-markup", targets: ["swiftprint-markup"]),
        .executable(name: "swiftprint-map", targets: ["swiftprint-map"]),
        .executable(name: "swiftprint-raster", targets: ["swiftprint-raster"]),
        .executable(name: "swiftprint-center", targets: ["swiftprint-center"]),
        // The map engine, for apps that draw maps in their own page renderers (MapPrintFormatter);
        // swiftprint's programs draw maps through swiftprint-map instead.
        .library(name: "SwiftPrintMaps", targets: ["MapEngine"]),
        // The object-level assembler's engine, opened on the first job that assembles a PDF
        // (install it beside the executables): text jobs never load libqpdf and its dependencies.
        .library(name: "SwiftPrintQPDF", type: .dynamic, targets: ["CQPDFShim"]),
        // The damaged-PDF repair engine (poppler), opened only for a PDF qpdf cannot rebuild.
        .library(name: "SwiftPrintPDFRepair", type: .dynamic, targets: ["CPDFRepairShim"]),
        // Preloaded into WebKit's web process by swiftprint-markup: its prints' streams are
        // stored, not compressed, as swiftprint compresses them again (deflate_level.c says why).
        .library(name: "SwiftPrintWebPrintDeflate", type: .dynamic, targets: ["CWebPrintDeflateShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The web Print Center's server (swiftprint-center only).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // `swift package generate-documentation`: the library's DocC catalogue (scripts/build-docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries
        .systemLibrary(name: "CCairo", path: "Sources/C/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", path: "Sources/C/CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CUchardet", path: "Sources/C/CUchardet", pkgConfig: "uchardet", providers: [.apt(["libuchardet-dev"])]),
        .systemLibrary(name: "CMagic", path: "Sources/C/CMagic", pkgConfig: "libmagic", providers: [.apt(["libmagic-dev"])]),
        .systemLibrary(name: "CLibPNG", path: "Sources/C/CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libpng reports errors by longjmp: its shim catches them in C.
        .target(name: "CPNGShim", dependencies: ["CLibPNG"], path: "Sources/C/CPNGShim"),
        .systemLibrary(name: "CLibTIFF", path: "Sources/C/CLibTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // libtiff's varargs getters and error handlers: its shim calls them in C.
        .target(name: "CTIFFShim", dependencies: ["CLibTIFF"], path: "Sources/C/CTIFFShim"),
        .systemLibrary(name: "CGif", path: "Sources/C/CGif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/C/CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", path: "Sources/C/CHeif", providers: [.apt(["libheif-dev"])]),
        // libheif is loaded on first use (its HEVC decoder's start-up costs every run ~10 ms).
        .target(name: "CHeifShim", dependencies: ["CHeif", "CLibraryLoader"], path: "Sources/C/CHeifShim"),
        // libjxl is loaded on first use, in swiftprint-image only (CJxlShim.h says why; its headers
        // come from libjxl-dev).
        .target(name: "CJxlShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CJxlShim"),
        // libavif, for AVIF sequences (animated AVIF), is loaded the same way (CAvifShim.h says
        // why; its headers come from libavif-dev).
        .target(name: "CAvifShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CAvifShim"),
        // Markdown: GitHub's CommonMark parser (its core and its extensions are two libraries).
        .systemLibrary(name: "CMarkGFM", path: "Sources/C/CMarkGFM", pkgConfig: "libcmark-gfm", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(name: "CRsvg", path: "Sources/C/CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // libcups has no pkg-config file on Debian 12: linked by name.
        .systemLibrary(name: "CGdkPixbuf", path: "Sources/C/CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // WebKitGTK and GTK's Unix printing, driven from C (CWebKitShim) by swiftprint-markup only.
        .systemLibrary(name: "CWebKit", path: "Sources/C/CWebKit", pkgConfig: "webkit2gtk-4.1", providers: [.apt(["libwebkit2gtk-4.1-dev"])]),
        .systemLibrary(name: "CGtkUnixPrint", path: "Sources/C/CGtkUnixPrint", pkgConfig: "gtk+-unix-print-3.0", providers: [.apt(["libgtk-3-dev"])]),
        .target(name: "CWebKitShim", dependencies: ["CWebKit", "CGtkUnixPrint"], path: "Sources/C/CWebKitShim",
                // Xlib's handler for a lost display (renderer.c); GTK's pkg-config names only GDK.
                linkerSettings: [.linkedLibrary("X11")]),
        // pango's cast macros and a fontconfig preload thread, in C (CPangoShim.h says why).
        .target(name: "CPangoShim", dependencies: ["CPango", "CCairo"], path: "Sources/C/CPangoShim", linkerSettings: [.linkedLibrary("fontconfig")]),
        // Starting a bounded child (limits and a process group between fork and exec), for ChildProcess (CSpawnShim.h says why).
        .target(name: "CSpawnShim", path: "Sources/C/CSpawnShim"),
        // Small cuts of very large CFF fonts for cairo to embed; libharfbuzz-subset is opened on first use.
        // <sys/xattr.h>, which Swift's Glibc module leaves out (PrintDocument's safe save).
        .systemLibrary(name: "CXattr", path: "Sources/C/CXattr"),
        .systemLibrary(name: "CFreeType", path: "Sources/C/CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(
            name: "CFontSubset", dependencies: ["CPango", "CCairo", "CFreeType", "CLibraryLoader"], path: "Sources/C/CFontSubset",
            linkerSettings: [.linkedLibrary("fontconfig"), .linkedLibrary("pangoft2-1.0"), .linkedLibrary("harfbuzz")]
        ),
        // libqpdf is C++: the object-level assembler reaches it through a table of C functions
        // (CQPDF), filled by CQPDFShim in libSwiftPrintQPDF.so and looked up on first use.
        .target(name: "CQPDF", dependencies: ["CLibraryLoader"], path: "Sources/C/CQPDF"),
        .systemLibrary(name: "CHarfBuzzSubset", path: "Sources/C/CHarfBuzzSubset", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"])]),
        .target(
            name: "CQPDFShim",
            dependencies: ["CQPDF", "CHarfBuzzSubset"], path: "Sources/C/CQPDFShim",
            cxxSettings: [.define("POINTERHOLDER_TRANSITION", to: "4")],
            // The engine is C++ only: without these, swiftc links it to the toolchain's
            // libswiftCore.so (a second Swift runtime in a statically linked swiftprint, 2 MB
            // more per job, and a dependency on the toolchain's folder at run time).
            linkerSettings: [.linkedLibrary("qpdf"), .unsafeFlags(["-nostartfiles", "-static-stdlib"])]
        ),

        // poppler's core reads again a damaged PDF qpdf could not rebuild (CPDFRepair says why).
        .systemLibrary(name: "CPoppler", path: "Sources/C/CPoppler", pkgConfig: "poppler", providers: [.apt(["libpoppler-private-dev"])]),
        .target(name: "CPDFRepair", dependencies: ["CLibraryLoader"], path: "Sources/C/CPDFRepair"),
        .target(
            name: "CPDFRepairShim",
            dependencies: ["CPDFRepair", "CPoppler"], path: "Sources/C/CPDFRepairShim",
            // C++ only, as CQPDFShim: no Swift runtime linked into it. Little CMS (which poppler
            // links anyway): photos' profiles converted once, optimised (prescaled_images.cpp).
            linkerSettings: [.linkedLibrary("poppler"), .linkedLibrary("lcms2"), .unsafeFlags(["-nostartfiles", "-static-stdlib"])]
        ),

        .target(
            name: "CWebPrintDeflateShim", path: "Sources/C/CWebPrintDeflateShim",
            // Loaded into WebKit's processes: no Swift runtime (swiftc's link adds libstdc++, which
            // WebKit loads anyway).
            linkerSettings: [.linkedLibrary("dl"), .unsafeFlags(["-nostartfiles", "-static-stdlib"])]
        ),

        // The core, in layers: each imports only the layers above it in this list (LayeringTests
        // reads every import and fails on one that reaches down the list).
        .target(name: "PrintModel", path: "Sources/Model"),
        .target(name: "PrintSupport", dependencies: ["PrintModel", "CSpawnShim"], path: "Sources/Support"),
        .target(name: "ContentDetection", dependencies: ["PrintModel", "PrintSupport", "CMagic"], path: "Sources/Detection"),
        .target(name: "PDFObjects", dependencies: ["PrintModel", "PrintSupport", "CQPDF", "CPDFRepair"], path: "Sources/PDFObjects"),
        // Opening a library at run time: dlopen's flags and messages, for every shim that opens one
        // (libcups, poppler-glib, Little CMS, libcurl, libheif, libharfbuzz-subset) and for the
        // qpdf and poppler engines (LayeringTests: no other C file calls dlopen).
        .target(name: "CLibraryLoader", path: "Sources/C/CLibraryLoader"),
        // libcups, the one binding, opened at run time (CCupsShim.h says why): option strings,
        // PPDs, IPP messages.
        .target(name: "CCupsShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CCupsShim"),
        // poppler-glib, opened at run time by raster output and previews (CPopplerGlibShim.h says why).
        .target(name: "CPopplerGlibShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CPopplerGlibShim"),
        // Little CMS, opened at run time by raster output in Adobe RGB and CMYK (CLcmsShim.h says why;
        // lcms2.h comes from liblcms2-dev).
        .target(name: "CLcmsShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CLcmsShim"),
        .target(name: "CUPSLibrary", dependencies: ["PrintModel", "CCupsShim"], path: "Sources/CUPS/Library"),
        .target(name: "PrintGraphics", dependencies: ["PrintModel", "PrintSupport", "PDFObjects", "CCairo", "CPango", "CPangoShim", "CFontSubset", "CPopplerGlibShim", "CLcmsShim"],
                path: "Sources/Graphics"),
        .target(name: "PrintOptions", dependencies: ["PrintModel", "PrintSupport", "PrintGraphics"], path: "Sources/Options"),
        // The one protocol of the helper programs (request and reply lines, a helper's main) and
        // where a helper is installed: the model only, no engine. Each helper's own task is its
        // plugin's (Plugins/<Type>/Protocol); the runner is HandlerSupport's.
        .target(name: "PrintHelpers", dependencies: ["PrintModel"], path: "Sources/Helpers"),
        .target(name: "PageLayout", dependencies: ["PrintModel", "PrintGraphics", "PrintOptions"], path: "Sources/Layout"),
        .target(name: "PDFOutput", dependencies: ["PrintModel", "PrintSupport", "PDFObjects", "PrintGraphics"], path: "Sources/Output"),
        // PWG and Apple raster: a job's PDF drawn by poppler, written by libcups.
        // The drawing runs in swiftprint-raster, a process of its own (RasterHelperProcess says why).
        .target(name: "RasterOutput", dependencies: ["PrintModel", "PrintSupport", "PrintHelpers", "PDFObjects", "PrintGraphics", "PrintOptions", "CUPSLibrary"],
                path: "Sources/Raster"),
        .executableTarget(name: "swiftprint-raster", dependencies: ["RasterOutput", "PrintHelpers", "PrintModel"], path: "Sources/RasterHelper"),
        // gdk-pixbuf's owner, for the two that decode with it (BMP, map tiles), both in helpers.
        .target(name: "PixbufDecoding", dependencies: ["PrintModel", "CGdkPixbuf"], path: "Sources/Pixbuf"),
        // What a content handler builds on, in one import (the layers above, without PrintJobs).
        .target(name: "HandlerSupport", dependencies: ["PrintModel", "PrintSupport", "ContentDetection", "PDFObjects", "PrintHelpers",
                                                       "PrintGraphics", "PrintOptions", "PageLayout", "PDFOutput"]),

        .target(
            name: "TextHandler",
            dependencies: ["HandlerSupport", "CUchardet"],
            path: "Plugins/Text"
        ),
        .target(
            name: "PDFHandler",
            dependencies: ["HandlerSupport", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/PDF"
        ),
        .target(
            name: "ImageHandler",
            dependencies: ["HandlerSupport", "ImageProtocol", "CPNGShim", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/Image/Handler"
        ),
        // Decoders for the image formats that need big libraries; run by swiftprint-image in its
        // own process so that other jobs never load them.
        .target(
            name: "ImageDecoders",
            dependencies: ["HandlerSupport", "PixbufDecoding", "CTIFFShim", "CGif", "CWebP", "CHeifShim", "CJxlShim", "CAvifShim", "CRsvg", "CCairo"],
            path: "Plugins/Image/Decoders"
        ),
        // What the image handler asks swiftprint-image, shared by the two.
        .target(name: "ImageProtocol", path: "Plugins/Image/Protocol"),
        // Raster streams (Apple, PWG, CUPS raster), read by libcups.
        .target(name: "RasterHandler", dependencies: ["HandlerSupport", "CUPSLibrary"], path: "Plugins/Raster"),
        .executableTarget(name: "swiftprint-image", dependencies: ["ImageDecoders", "ImageProtocol", "HandlerSupport"], path: "Plugins/Image/Helper"),
        // What the markup handler and swiftprint-markup say to each other (tasks, reports, the
        // page marks, the shared and spare renderers' sockets): all of the core's helper
        // protocol that knows of markup, so that the core knows nothing of WebKit.
        .target(name: "MarkupProtocol", dependencies: ["PrintHelpers", "PrintModel", "PrintSupport"], path: "Plugins/Markup/Protocol"),
        // HTML and Markdown: laid out by WebKit in swiftprint-markup, a process of its own that
        // only markup jobs start; its PDF pages are placed by the assembler like a PDF's.
        .target(
            name: "MarkupHandler",
            dependencies: ["HandlerSupport", "MarkupProtocol", "CMarkGFM", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/Markup/Handler"
        ),
        .executableTarget(name: "swiftprint-markup", dependencies: ["MarkupProtocol", "PrintHelpers", "PrintModel", "PrintSupport", "CWebKitShim"], path: "Plugins/Markup/Helper"),
        // libcurl's variadic setters behind plain C, loaded with dlopen (curl.h only at build time).
        .target(name: "CCurlShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CCurlShim"),
        // Maps: tiles (MBTiles through GRDB, tile folders, http(s) URL templates) under GeoJSON
        // and GPX drawn as vectors. The engine runs in swiftprint-map, a process of its own that
        // only map jobs start (MapHandler runs it), so other jobs never load SQLite,
        // libxml2 or gdk-pixbuf.
        // What the map handler asks swiftprint-map, shared by the two.
        .target(name: "MapProtocol", dependencies: ["PrintOptions"], path: "Plugins/Map/Protocol"),
        .target(
            name: "MapEngine",
            dependencies: ["HandlerSupport", "PixbufDecoding", "CCurlShim", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Plugins/Map/Engine"
        ),
        .executableTarget(name: "swiftprint-map", dependencies: ["MapEngine", "MapProtocol", "HandlerSupport", "PrintJobs", .product(name: "Logging", package: "swift-log")],
                          path: "Plugins/Map/Helper"),
        .target(
            name: "MapHandler",
            dependencies: ["HandlerSupport", "MapProtocol", .product(name: "Logging", package: "swift-log")],
            path: "Plugins/Map/Handler"
        ),
        // Draws Config/basemap/world.mbtiles from Natural Earth (scripts/make-basemap); not installed.
        .executableTarget(
            name: "swiftprint-make-basemap",
            dependencies: ["MapEngine", "CCairo", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Plugins/Map/Basemap"
        ),
        // Printers and jobs (the printer picker, printToPrinter, the Print Center), through
        // libcups's client side.
        .target(name: "CUPSClient", dependencies: ["PrintModel", "PrintSupport", "PrintOptions", "CUPSLibrary", "CUPSCommon"], path: "Sources/CUPS/Client"),
        // Job orchestration: the dispatcher, the paginator, one job from inputs to a PDF.
        .target(name: "PrintJobs", dependencies: ["PrintModel", "PrintSupport", "ContentDetection", "PDFObjects", "PrintGraphics", "PrintOptions", "PageLayout", "PDFOutput", "RasterOutput", .product(name: "Logging", package: "swift-log")], path: "Sources/Jobs"),
        // The document model: a document saved in a file (xattrs kept, changes by others seen by
        // inotify), which names the formatter that prints it.
        .target(name: "SwiftPrintDocument", dependencies: ["PrintModel", "PrintSupport", "PageLayout", "CXattr"], path: "Sources/Document"),
        .target(name: "SwiftPrint", dependencies: ["HandlerSupport", "PrintJobs", "TextHandler", "PDFHandler", "ImageHandler", "MarkupHandler", "RasterHandler", "SwiftPrintDocument",
                                                   "MapHandler", "CUPSClient", "CUPSLibrary"]),

        // CUPS: the queue's files and the installer (libcups, opened only to ask a printer);
        // what filter and backend share (cupsd's message lines); the
        // filter (options and the PPD, then the job); the backend (it runs as root: it reads its
        // arguments and a byte stream, no content).
        .target(name: "CUPSQueue", dependencies: ["PrintModel", "PrintSupport", "PrintOptions", "CUPSLibrary", "CUPSCommon"], path: "Sources/CUPS/Queue"),
        .target(name: "CUPSCommon", dependencies: ["CSpawnShim"], path: "Sources/CUPS/Common"),
        .target(
            name: "CUPSFilter",
            dependencies: ["SwiftPrint", "CUPSCommon", "CUPSLibrary", .product(name: "Logging", package: "swift-log")],
            path: "Sources/CUPS/Filter"
        ),
        .target(name: "CUPSBackend", dependencies: ["CUPSCommon", "CUPSLibrary", "PrintSupport", "CXattr"], path: "Sources/CUPS/Backend"),
        .executableTarget(name: "swiftprint-filter", dependencies: ["CUPSFilter", "CUPSCommon"], path: "Sources/CUPS/FilterProgram"),
        .executableTarget(name: "swiftprint-backend", dependencies: ["CUPSBackend", "CUPSCommon"], path: "Sources/CUPS/BackendProgram"),
        .executableTarget(name: "swiftprint-relay", dependencies: ["CUPSBackend", "CUPSCommon"], path: "Sources/CUPS/RelayProgram"),

        // The Print Center as a web page (`swiftprint center` runs it): a program of its own, so
        // that no other command loads a web server; its page is Config/center.
        .executableTarget(name: "swiftprint-center",
                          dependencies: ["CUPSClient", "CUPSCommon", "PrintModel", "PrintOptions", .product(name: "Hummingbird", package: "hummingbird"),
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Sources/WebCenter"),

        // The command-line tool
        .executableTarget(
            name: "swiftprint",
            dependencies: [
                "SwiftPrint", "CUPSQueue",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/CLI"
        ),

        // Examples/: the recipe renderer of the iOS printing guide, a receipt printed from a
        // server and a notes app's document, built and run by the tests.
        .executableTarget(name: "recipe-example", dependencies: ["SwiftPrint"], path: "Examples/Recipe"),
        .executableTarget(name: "receipt-example", dependencies: ["SwiftPrint"], path: "Examples/Receipt"),
        .executableTarget(name: "notes-example", dependencies: ["SwiftPrint"], path: "Examples/Notes"),

        // Fuzz/: a fuzz target for every parser of untrusted bytes (FUZZING.md), and the program
        // that runs one under libFuzzer (scripts/fuzz) or replays files through it (the tests).
        .target(name: "FuzzTargets", dependencies: ["SwiftPrint", "ImageDecoders", "MapEngine", "MarkupProtocol", "CUPSFilter", "CUPSQueue"], path: "Fuzz/Targets"),
        .executableTarget(name: "swiftprint-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/Driver"),

        // Tests: they use the real libraries, fonts and poppler's command-line tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Reads the sources: no module imports a layer above its own.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),
        // One test target per module it tests, then the end-to-end suites (CLI, CUPS).
        .testTarget(name: "PrintModelTests", dependencies: ["SwiftPrint", "TestSupport"]),
        .testTarget(name: "PrintSupportTests", dependencies: ["SwiftPrint", "TestSupport"]),
        .testTarget(name: "PDFObjectsTests", dependencies: ["SwiftPrint", "TestSupport"]),
        // Unit tests of one layer, without the umbrella: the sheet planner's arithmetic.
        .testTarget(name: "PDFOutputTests", dependencies: ["PDFOutput", "PDFObjects", "PrintModel"]),
        // The printer-capabilities adapter: a PPD and IPP's lists into one typed form, raster settled from it.
        .testTarget(name: "CUPSClientTests", dependencies: ["CUPSClient", "CUPSLibrary", "PrintModel"]),
        // The paginator's loop driven by a page renderer that records what it is asked.
        .testTarget(name: "PrintJobsLayerTests", dependencies: ["PrintJobs", "PageLayout", "PrintGraphics", "PrintModel", "PrintSupport"]),
        .testTarget(name: "PrintGraphicsTests", dependencies: ["SwiftPrint", "TestSupport"]),
        .testTarget(name: "PrintJobsTests", dependencies: ["SwiftPrint", "MapEngine", "TestSupport", "CXattr", "notes-example",
                                                            "swiftprint-markup", "swiftprint-map", "swiftprint-raster"]),
        .testTarget(name: "MapEngineTests", dependencies: ["SwiftPrint", "MapEngine", "TestSupport", "swiftprint-map"]),
        // Fixtures/ and Golden/ are read by path, beside the tests.
        .testTarget(name: "TextHandlerTests", dependencies: ["SwiftPrint", "TextHandler", "TestSupport"], exclude: ["Fixtures"]),
        // TileServer/: a counting tile server the map tests start (Python, from the test).
        // SampleFiles/: OpenPrinting's sample photos, read by path.
        .testTarget(name: "CLITests", dependencies: ["swiftprint", "swiftprint-markup", "swiftprint-map", "swiftprint-raster", "recipe-example", "TestSupport",
                                                     "PrintHelpers", "ImageProtocol", "MapProtocol", "PrintGraphics"],
                    exclude: ["TileServer", "Golden", "Identity", "SampleFiles"]),
        // Replays every seed and every input that ever failed through swiftprint-fuzz.
        .testTarget(name: "FuzzTests", dependencies: ["swiftprint-fuzz", "TestSupport"]),
        .testTarget(name: "CUPSTests", dependencies: ["CUPSFilter", "CUPSBackend", "CUPSCommon", "CUPSLibrary", "CUPSQueue", "TestSupport",
                                                      "swiftprint", "swiftprint-filter", "swiftprint-backend", "swiftprint-relay", "swiftprint-markup", "swiftprint-map",
                                                      "swiftprint-raster", "swiftprint-center", "receipt-example", "recipe-example", "notes-example"]),
    ],
    cxxLanguageStandard: .cxx17
)
