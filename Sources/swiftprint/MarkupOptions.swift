import ArgumentParser

/// Options for HTML and Markdown (laid out by WebKit).
struct MarkupOptions: ParsableArguments {
    @Flag(help: "Let an HTML page's own scripts run (off by default: pages from strangers are printed as they are).")
    var scripts = false

    @Option(name: .customLong("markup-timeout"),
            help: ArgumentHelp("Seconds an HTML or Markdown document may take to load, and to lay out (default 60).", valueName: "seconds"))
    var markupTimeout: Double?

    /// These settings by their option names, for `JobOptions` (which checks them).
    var jobOptions: [(name: String, value: String)] {
        var o: [(name: String, value: String)] = []
        if scripts { o.append(("swiftprint-scripts", "true")) }
        if let markupTimeout { o.append(("swiftprint-markup-timeout", String(markupTimeout))) }
        return o
    }
}
