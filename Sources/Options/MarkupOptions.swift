import Foundation

/// Options for HTML and Markdown (laid out by WebKit).
public enum MarkupOptions {
    public static let scripts = JobOption<Bool>(
        "swiftprint-scripts", aliases: ["scripts"], form: .flag,
        help: "Let an HTML page's own scripts run (off by default: pages from strangers are printed as they are).",
        expects: "true or false", example: "true") { $0.markup.scripts = $1 }

    public static let timeout = JobOption<Double>(
        "swiftprint-markup-timeout", aliases: ["markup-timeout"],
        help: "Seconds an HTML or Markdown document may take to load, and to lay out (default 60).", valueName: "seconds",
        expects: "seconds, more than 0, at most 3600", example: "30", valid: { $0 > 0 && $0 <= 3600 }) { $0.markup.timeout = $1 }

    public static let all: [any DeclaredOption] = [scripts, timeout]
}
