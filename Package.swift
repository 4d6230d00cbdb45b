// swift-tools-version:6.0
// swiftprint: the iOS printing model on Linux, over cairo, pango and CUPS.
//
// Layout (see README.md):
//   Sources/C*         one systemLibrary target per C library (module map + one-line header)
//   Sources/SPShims    C shims for the macros Swift cannot import, and a fontconfig preload (prefixed SP…)
//   Sources/SwiftPrintCore  geometry, paper, PrintInfo, formatters, renderer, paginator, PDF writer
//   Plugins/<Handler>  one target per content type; registered in Sources/SwiftPrint/Handlers.swift
//   Sources/SwiftPrint the public library: re-exports the core and every handler
//   Sources/swiftprint the command-line tool
// SwiftPM treats a top-level Plugins/ folder as package plugins, so handler targets name their path.
import PackageDescription

let package = Package(
    name: "swiftprint",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SwiftPrint", targets: ["SwiftPrint"]),
        .executable(name: "swiftprint", targets: ["swiftprint"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C libraries
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CUchardet", pkgConfig: "uchardet", providers: [.apt(["libuchardet-dev"])]),
        .target(name: "SPShims", dependencies: ["CPango", "CCairo"], linkerSettings: [.linkedLibrary("fontconfig")]),

        // The library
        .target(
            name: "SwiftPrintCore",
            dependencies: [
                "CCairo", "CPango", "SPShims",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TextHandler",
            dependencies: ["SwiftPrintCore", "CCairo", "CPango", "CUchardet"],
            path: "Plugins/TextHandler"
        ),
        .target(name: "SwiftPrint", dependencies: ["SwiftPrintCore", "TextHandler"]),

        // The command-line tool
        .executableTarget(
            name: "swiftprint",
            dependencies: [
                "SwiftPrint",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Tests: they use the real libraries, fonts and poppler's command-line tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SwiftPrintCoreTests", dependencies: ["SwiftPrint", "TestSupport"]),
        .testTarget(name: "TextHandlerTests", dependencies: ["SwiftPrint", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["swiftprint", "TestSupport"]),
    ]
)
