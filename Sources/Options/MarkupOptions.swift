import Foundation

/// Options for HTML and Markdown (laid out by WebKit).
public enum MarkupOptions {
    public static let scripts = JobOption<Bool>(
        "swiftprint-scripts", aliases: ["scripts"], form: .flag,
        help: "Let an HTML page's own scripts run (off by default: pages from strangers are printed as they are).",
        expects: "true or false", example: "true") { $0.markup.scripts = $1 }

    /// A folder, so the command line's only: a print job's page reads no local file at all.
    public static let allowFiles = JobOption<String>(
        "swiftprint-allow-files", aliases: ["allow-files"], sources: .commandLine,
        help: "Let an HTML or Markdown document read files anywhere under this folder, as a manual whose style sheet sits in the folder above needs.",
        valueName: "folder", expects: "a folder", example: "/usr/share/doc", default: .unset("the document's own folder only"),
        valid: { var folder: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &folder) && folder.boolValue }) {
        $0.markup.allowedFolder = URL(fileURLWithPath: $1).standardizedFileURL.path
    }

    public static let all: [any DeclaredOption] = [scripts, allowFiles]
}
