// swiftprint-markup: WebKitGTK in a process of its own, for the markup handler (HTML, Markdown).
// Only markup jobs start it, so text and image jobs never load WebKit and GTK; the untrusted
// page is parsed and laid out outside the job's process; and one display and one WebKit serve
// every document of the process that started it.
//
//   swiftprint-markup          reads request lines (HelperRequest<MarkupTask>, PrintHelpers says
//                              the protocol) on standard input and answers each with a reply
//                              line (HelperReply<PageStyleReport>); ends at end of input.
//   swiftprint-markup --spare [--idle SECONDS]
//                              a spare renderer (SpareRenderer, Spare.swift): started ahead of a
//                              job, it serves the first run of its user that connects, then exits.
//   swiftprint-markup --serve FOLDER --keep SECONDS
//                              a shared renderer (SharedRenderer): the same lines over
//                              connections to FOLDER/markup.socket from its own user, until
//                              it has been idle for SECONDS (Serving.swift).
//
// It runs headless: GTK 3 needs an X display, so it starts a private Xvfb and never uses the
// user's. Its files (X cookie, WebKit's content filters, what GTK insists on writing) live in
// a private temporary folder that it removes at exit; HOME and the XDG folders point there, so
// it behaves the same as the lp user under CUPS, with no home and no session bus.
import CWebKitShim
import Foundation
import MarkupProtocol
import PrintHelpers
import PrintModel
import PrintSupport

/// The environment as this process was started with (before the changes below): a spare's
/// folder is found from its user's own XDG_RUNTIME_DIR or TMPDIR, as the run's is.
let launchEnvironment = ProcessInfo.processInfo.environment

let runtime: String
do {
    runtime = try TemporaryFiles.makePrivateDirectory(prefix: "swiftprint-markup-")
} catch {
    FileHandle.standardError.write(Data("swiftprint-markup: \(error)\n".utf8))
    exit(73)
}
spw_remove_on_termination_signals(runtime)

for (name, value) in [
    ("HOME", runtime), ("XDG_CONFIG_HOME", runtime + "/config"), ("XDG_CACHE_HOME", runtime + "/cache"),
    ("XDG_DATA_HOME", runtime + "/data"), ("XDG_STATE_HOME", runtime + "/state"), ("XDG_RUNTIME_DIR", runtime),
    // GTK: X11 only, on our display; only the print-to-file printer; no accessibility bus,
    // no dconf; GIO without gvfs.
    ("GDK_BACKEND", "x11"), ("GTK_PRINT_BACKENDS", "file"), ("NO_AT_BRIDGE", "1"), ("GTK_A11Y", "none"),
    ("GSETTINGS_BACKEND", "memory"), ("GIO_USE_VFS", "local"),
    // WebKit: software rendering only (an X server with no GPU behind it).
    ("WEBKIT_DISABLE_DMABUF_RENDERER", "1"), ("WEBKIT_DISABLE_COMPOSITING_MODE", "1"),
] { setenv(name, value, 1) }
for name in ["WAYLAND_DISPLAY", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "GTK_MODULES"] { unsetenv(name) }

var renderer: WebRenderer?
var startFailure: RenderFailure?
let decoder = JSONDecoder()

/// Writes one reply line to `output`.
func respond(_ reply: HelperReply<PageStyleReport>, to output: Int32) {
    HelperLine.write(HelperLine.encode(reply), to: output)
}

/// A script to run once the current request has been answered, before the next is read.
var cleanupAfterReply: (script: String, timeout: Double)?

/// What the loaded document is, so that a print request for it needs no second load.
var loadedKey: String?

/// What swiftprint changed in each document since it was loaded (the describe script's marks
/// and breaks, the generated content), by the document's key: run again whenever that
/// document is loaded again (another run's document came between, on a shared renderer), so
/// that its elements are the same ones, in the same order, that the job planned with.
var changes: [String: (describe: String?, generated: String?)] = [:]

@MainActor func load(_ request: HelperRequest<MarkupTask>, with renderer: WebRenderer) throws(RenderFailure) {
    let task = request.task
    guard let base = task.baseURL else { throw RenderFailure(.badRequest, "a request needs baseURL") }
    let html: Data
    if let text = task.html {
        html = Data(text.utf8)
    } else if let path = request.input {
        guard let bytes = FileBytes.read(path) else { throw RenderFailure(.loadFailed, "cannot read \(path)") }
        html = bytes
    } else {
        throw RenderFailure(.badRequest, "a request needs document or html")
    }
    loadedKey = nil
    try renderer.load(html: html, baseURL: base, allowedFolderURL: task.allowedFolderURL,
                      scripts: task.scripts ?? false, timeout: task.timeout)
    let key = key(request)
    if let change = changes[key] {
        for script in [change.describe, change.generated].compactMap({ $0 }) { _ = try renderer.evaluate(script, timeout: task.timeout) }
    }
    loadedKey = key
}

@MainActor func key(_ r: HelperRequest<MarkupTask>) -> String {
    [r.input ?? "", String(r.task.html?.hashValue ?? 0), r.task.baseURL ?? "", r.task.allowedFolderURL ?? "", String(r.task.scripts ?? false),
     r.task.owner ?? "", String(currentConnection)]
        .joined(separator: "\u{0}")
}

func pageStyle(_ renderer: WebRenderer, extraSheets: [String], timeout: Double) throws(RenderFailure) -> PageStyleReport {
    let json = try renderer.evaluate(PageStyleReport.script(extraSheets: extraSheets), timeout: timeout)
    do { return try decoder.decode(PageStyleReport.self, from: json) } catch {
        throw RenderFailure(.scriptFailed, "the page's style report is not readable: \(error)")
    }
}

@MainActor func handle(_ request: HelperRequest<MarkupTask>, with renderer: WebRenderer) throws(RenderFailure) -> HelperReply<PageStyleReport> {
    let task = request.task
    switch task.operation {
    case .load:
        // A formatter's first request: what an earlier one changed in this document is gone.
        changes[key(request)] = nil
        try load(request, with: renderer)
        var report = try pageStyle(renderer, extraSheets: [], timeout: task.timeout)
        // Linked sheets in the document's own folder are read here and parsed in the page.
        let readable = report.unreadableSheets.compactMap { href -> String? in
            guard let folder = task.allowedFolderURL, href.hasPrefix(folder), let url = URL(string: href),
                  url.isFileURL, let data = FileBytes.read(url.path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        if !readable.isEmpty { report = try pageStyle(renderer, extraSheets: readable, timeout: task.timeout) }
        return HelperReply(answer: report)
    case .describeElements:
        if loadedKey != key(request) { try load(request, with: renderer) }
        let script = PageStyleReport.describeScript(ruleSelectors: task.ruleSelectors ?? [], attributeNames: task.attributeNames ?? [],
                                                    pageNames: task.pageNames ?? [], targetLinks: task.targetLinks ?? [],
                                                    sideRules: task.sideRules ?? [], resetRules: task.resetRules ?? [])
        let json = try renderer.evaluate(script, timeout: task.timeout)
        changes[key(request), default: (nil, nil)].describe = script
        do { return HelperReply(answer: try decoder.decode(PageStyleReport.self, from: json)) } catch {
            throw RenderFailure(.scriptFailed, "the page's elements are not readable: \(error)")
        }
    case .readText:
        guard let selector = task.elementSelector else { throw RenderFailure(.badRequest, "readText needs elementSelector") }
        if loadedKey != key(request) { try load(request, with: renderer) }
        let json = try renderer.evaluate(DocumentText.script(selector: selector, boxSelector: task.boxSelector), timeout: task.timeout)
        do {
            // null: the selector does not read here.
            guard let text = try decoder.decode(DocumentText?.self, from: json) else { return HelperReply() }
            return HelperReply(answer: PageStyleReport(documentText: text))
        } catch {
            throw RenderFailure(.scriptFailed, "the page's text is not readable: \(error)")
        }
    case .setGeneratedContent:
        if loadedKey != key(request) { try load(request, with: renderer) }
        let script = GeneratedContent.script(task.generated ?? [])
        _ = try renderer.evaluate(script, timeout: task.timeout)
        changes[key(request), default: (nil, nil)].generated = script
        return HelperReply()
    case .print:
        guard let output = request.output, let width = task.pageWidth, let height = task.pageHeight,
              width > 0, height > 0 else {
            throw RenderFailure(.badRequest, "print needs output, pageWidth and pageHeight")
        }
        if loadedKey != key(request) { try load(request, with: renderer) }
        // Blank space above the content on the first page only (padding is not repeated on
        // later pages), over the page's own padding, which is kept aside for the next print.
        let inset = max(0, task.firstPageTopInset ?? 0)
        let script = """
            (() => { const html = document.documentElement;
              if (!("swiftprintPadding" in html.dataset)) html.dataset.swiftprintPadding = getComputedStyle(html).paddingTop || "0px";
              html.style.setProperty("padding-top", "calc(\(inset)pt + " + html.dataset.swiftprintPadding + ")", "important");
              return true; })()
            """
        _ = try renderer.evaluate(script, timeout: task.timeout)
        guard let selector = task.markSelector else {
            try renderer.print(to: output, width: width, height: height, timeout: task.timeout)
            return HelperReply()
        }
        do {
            _ = try renderer.evaluate(ElementPageMarks.markScript(selector: selector, prefix: task.markPrefix ?? "SWPMK", endSelector: task.markEndSelector), timeout: task.timeout)
        } catch {
            _ = try? renderer.evaluate(ElementPageMarks.unmarkScript, timeout: task.timeout)
            throw RenderFailure(.scriptFailed, "the elements \(selector) cannot be marked: \(error.message)")
        }
        // The marks go once the answer is out (a relayout swiftprint need not wait for).
        cleanupAfterReply = (ElementPageMarks.unmarkScript, task.timeout)
        try renderer.print(to: output, width: width, height: height, timeout: task.timeout)
        return HelperReply()
    }
}

if CommandLine.arguments.count >= 2, CommandLine.arguments[1] == "--spare" {
    // --spare [--idle SECONDS]
    let idle = CommandLine.arguments.count == 4 && CommandLine.arguments[2] == "--idle" ? Double(CommandLine.arguments[3]) : nil
    let status = serveAsSpare(idle: idle)
    renderer = nil
    spw_exit_cleanly(status)
} else if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--serve", CommandLine.arguments[3] == "--keep",
   let keep = Double(CommandLine.arguments[4]), keep > 0 {
    serveShared(folder: CommandLine.arguments[2], keep: keep)
} else {
    // The requests and replies move to descriptors of their own, which no child inherits:
    // WebKit's web process writes GLib's debug messages to its standard output (with
    // G_MESSAGES_DEBUG set), which would otherwise land among the replies, and a child reading
    // standard input would take requests. The children get /dev/null and standard error.
    let requests = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3), replies = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    let null = open("/dev/null", O_RDONLY)
    guard requests >= 0, replies >= 0, null >= 0, dup2(null, STDIN_FILENO) >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
        FileHandle.standardError.write(Data("swiftprint-markup: cannot set up its descriptors: \(String(cString: strerror(errno)))\n".utf8))
        spw_exit_cleanly(71)
        exit(71)  // not reached: spw_exit_cleanly exits
    }
    close(null)
    serveRequests(from: requests, to: replies)
}
renderer = nil
spw_exit_cleanly(0)
