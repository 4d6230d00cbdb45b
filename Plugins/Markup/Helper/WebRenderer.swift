import CWebKitShim
import Foundation
import MarkupProtocol
import PrintHelpers
import PrintModel
import PrintSupport

/// The one WebKit renderer of this process (CWebKitShim's SPWRenderer): a private X display,
/// GTK and a WebKit context, started once and reused for every document. Used on the main
/// thread only.
final class WebRenderer {
    private let renderer: OpaquePointer

    /// The library WebKit's web process preloads so that its prints are not compressed twice
    /// (`CWebPrintDeflateShim` says why): installed beside the engines, or
    /// `$SWIFTPRINT_WEB_PRINT_DEFLATE_LIBRARY`. Without it printing is slower, and says so.
    static let printDeflateLibrary = "libSwiftPrintWebPrintDeflate.so"

    static func findPrintDeflateLibrary() -> String? {
        Installation.engineCandidates(printDeflateLibrary, override: "SWIFTPRINT_WEB_PRINT_DEFLATE_LIBRARY")
            .first { access($0, R_OK) == 0 }
    }

    /// Starts the display, GTK and WebKit, keeping their files in `runtimeDirectory`.
    init(runtimeDirectory: String) throws(RenderFailure) {
        let preload = Self.findPrintDeflateLibrary()
        if preload == nil {
            FileHandle.standardError.write(Data(
                "swiftprint-markup: \(Self.printDeflateLibrary) is not installed beside swiftprint: WebKit compresses each print, which swiftprint undoes (the same output, slower)\n".utf8))
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let r = spw_renderer_new(runtimeDirectory, preload, &error) else {
            throw RenderFailure(.setupFailed, Self.take(error) ?? "WebKit could not start")
        }
        renderer = r
    }

    deinit { spw_renderer_free(renderer) }

    /// The X display WebKit draws on (":N").
    var display: String { String(cString: spw_renderer_display(renderer)) }

    /// Keeps working when the process that started this one ends (a shared renderer).
    func outliveParent() { spw_renderer_outlive_parent(renderer) }

    /// Handles what GTK and WebKit have pending, between documents.
    func idle() { spw_renderer_idle(renderer) }

    func load(html: Data, baseURL: String, allowedFolderURL: String?, scripts: Bool, timeout: Double) throws(RenderFailure) {
        var error: UnsafeMutablePointer<CChar>?
        let status = html.withUnsafeBytes { bytes in
            spw_renderer_load(renderer, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, baseURL,
                              allowedFolderURL, scripts ? 1 : 0, timeout, &error)
        }
        try check(status, error)
    }

    /// Runs `script` in swiftprint's own world of the page and returns its value as JSON.
    func evaluate(_ script: String, timeout: Double) throws(RenderFailure) -> Data {
        var json: UnsafeMutablePointer<CChar>?, error: UnsafeMutablePointer<CChar>?
        let status = spw_renderer_evaluate(renderer, script, timeout, &json, &error)
        try check(status, error)
        return Data((Self.take(json) ?? "null").utf8)
    }

    func print(to output: String, width: Double, height: Double, timeout: Double) throws(RenderFailure) {
        var error: UnsafeMutablePointer<CChar>?
        try check(spw_renderer_print(renderer, output, width, height, timeout, &error), error)
    }

    private func check(_ status: SPWStatus, _ error: UnsafeMutablePointer<CChar>?) throws(RenderFailure) {
        let message = Self.take(error)
        guard status != SPW_OK else { return }
        let kind: RenderFailure.Kind = switch status {
        case SPW_TIMEOUT: .timeout
        case SPW_LOAD_FAILED: .loadFailed
        case SPW_CRASHED: .crashed
        case SPW_PRINT_FAILED: .printFailed
        case SPW_SCRIPT_FAILED: .scriptFailed
        default: .setupFailed
        }
        throw RenderFailure(kind, message ?? "WebKit failed (status \(status.rawValue))")
    }

    private static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { spw_free(pointer) }
        return String(cString: pointer)
    }
}

/// A step that failed, as the renderer reports it.
struct RenderFailure: Error {
    enum Kind { case timeout, loadFailed, crashed, setupFailed, printFailed, scriptFailed, badRequest }
    var kind: Kind
    var message: String
    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The failure as the reply carries it: a document WebKit cannot load is bad input,
    /// WebKit that cannot start is not available, the rest is a failed job.
    var reply: HelperReply<PageStyleReport> {
        let code: PrintError.Code = switch kind {
        case .loadFailed: .invalidInput
        case .setupFailed: .notAvailable
        default: .jobFailed
        }
        return HelperReply(failure: HelperFailure(PrintError(code, message)))
    }
}
