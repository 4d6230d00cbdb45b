// swiftprint-markup: WebKitGTK in a process of its own, for the markup handler (HTML, Markdown).
// Only markup jobs start it, so text and image jobs never load WebKit and GTK; the untrusted
// page is parsed and laid out outside the job's process; and one display and one WebKit serve
// every document of the process that started it.
//
//   swiftprint-markup          reads MarkupRenderRequest lines on standard input and answers
//                              each with a MarkupRenderResponse line; ends at end of input.
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
import MarkupHandler
import HandlerSupport

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
let encoder = JSONEncoder()
let decoder = JSONDecoder()

/// Writes one answer line to `output`.
func respond(_ response: MarkupRenderResponse, to output: Int32) {
    var line = (try? encoder.encode(response)) ?? Data(#"{"status":"badRequest"}"#.utf8)
    line.append(UInt8(ascii: "\n"))
    line.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(output, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}

/// What the loaded document is, so that a print request for it needs no second load.
nonisolated(unsafe) var loadedKey: String?

func load(_ request: MarkupRenderRequest, with renderer: WebRenderer) throws(RenderFailure) {
    guard let base = request.baseURL else { throw RenderFailure(.badRequest, "a request needs baseURL") }
    let html: Data
    if let text = request.html {
        html = Data(text.utf8)
    } else if let path = request.document {
        guard let bytes = FileManager.default.contents(atPath: path) else { throw RenderFailure(.loadFailed, "cannot read \(path)") }
        html = bytes
    } else {
        throw RenderFailure(.badRequest, "a request needs document or html")
    }
    loadedKey = nil
    try renderer.load(html: html, baseURL: base, allowedFolderURL: request.allowedFolderURL,
                      scripts: request.scripts ?? false, timeout: request.timeout)
    loadedKey = key(request)
}

func key(_ r: MarkupRenderRequest) -> String {
    [r.document ?? "", String(r.html?.hashValue ?? 0), r.baseURL ?? "", r.allowedFolderURL ?? "", String(r.scripts ?? false),
     String(currentConnection)]
        .joined(separator: "\u{0}")
}

func pageStyle(_ renderer: WebRenderer, extraSheets: [String], timeout: Double) throws(RenderFailure) -> PageStyleReport {
    let json = try renderer.evaluate(PageStyleReport.script(extraSheets: extraSheets), timeout: timeout)
    do { return try decoder.decode(PageStyleReport.self, from: json) } catch {
        throw RenderFailure(.scriptFailed, "the page's style report is not readable: \(error)")
    }
}

func handle(_ request: MarkupRenderRequest, with renderer: WebRenderer) throws(RenderFailure) -> MarkupRenderResponse {
    switch request.operation {
    case .load:
        try load(request, with: renderer)
        var report = try pageStyle(renderer, extraSheets: [], timeout: request.timeout)
        // Linked sheets in the document's own folder are read here and parsed in the page.
        let readable = report.unreadableSheets.compactMap { href -> String? in
            guard let folder = request.allowedFolderURL, href.hasPrefix(folder), let url = URL(string: href),
                  url.isFileURL, let data = FileManager.default.contents(atPath: url.path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        if !readable.isEmpty { report = try pageStyle(renderer, extraSheets: readable, timeout: request.timeout) }
        return MarkupRenderResponse(status: .ok, page: report)
    case .print:
        guard let output = request.output, let width = request.pageWidth, let height = request.pageHeight,
              width > 0, height > 0 else {
            throw RenderFailure(.badRequest, "print needs output, pageWidth and pageHeight")
        }
        if loadedKey != key(request) { try load(request, with: renderer) }
        // Blank space above the content on the first page only (padding is not repeated on
        // later pages), over the page's own padding, which is kept aside for the next print.
        let inset = max(0, request.firstPageTopInset ?? 0)
        let script = """
            (() => { const html = document.documentElement;
              if (!("swiftprintPadding" in html.dataset)) html.dataset.swiftprintPadding = getComputedStyle(html).paddingTop || "0px";
              html.style.setProperty("padding-top", "calc(\(inset)pt + " + html.dataset.swiftprintPadding + ")", "important");
              return true; })()
            """
        _ = try renderer.evaluate(script, timeout: request.timeout)
        try renderer.print(to: output, width: width, height: height, timeout: request.timeout)
        return MarkupRenderResponse(status: .ok)
    }
}

if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--serve", CommandLine.arguments[3] == "--keep",
   let keep = Double(CommandLine.arguments[4]), keep > 0 {
    serveShared(folder: CommandLine.arguments[2], keep: keep)
} else {
    serveRequests(from: STDIN_FILENO, to: STDOUT_FILENO)
}
renderer = nil
spw_exit_cleanly(0)
