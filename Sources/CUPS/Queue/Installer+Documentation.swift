import Foundation
import PrintModel

/// The manual pages and the shells' completion scripts, made at build time beside the programs
/// (`scripts/build-release`: `swiftprint manual` and `--generate-completion-script`), put where
/// `man` and the shells look under the installation's prefix. Run from an installed copy,
/// install finds them where the earlier install put them.
extension Installer {
    /// Each completion script: its name beside the programs, and the path its shell looks in
    /// (zsh's folder for packages is `vendor-completions` under /usr, and `site-functions` under
    /// /usr/local, both on Debian's default `fpath`). fish looks in `share/fish/vendor_completions.d`
    /// under /usr, ~/.local and the folders XDG_DATA_DIRS names, which is unset outside desktop
    /// sessions (ssh, a console): so under /usr/local, in the administrator's own folder for
    /// completions, /etc/fish/completions, which fish always reads.
    var completionScripts: [(built: String, installed: String)] {
        let prefix = layout.prefix
        return [("completions/swiftprint.bash", prefix + "/share/bash-completion/completions/swiftprint"),
                ("completions/_swiftprint", prefix + (prefix == "/usr" ? "/share/zsh/vendor-completions/_swiftprint" : "/share/zsh/site-functions/_swiftprint")),
                ("completions/swiftprint.fish", prefix == "/usr/local" ? "/etc/fish/completions/swiftprint.fish" : prefix + "/share/fish/vendor_completions.d/swiftprint.fish")]
    }

    func installDocumentation(_ manifest: inout Manifest) throws {
        let prefix = layout.prefix
        for section in [1, 7] {
            let installed = prefix + "/share/man/man\(section)"
            let built = [products + "/man/man\(section)", installed].first { FileManager.default.fileExists(atPath: $0) }
            let pages = built.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0) }?
                .filter { $0.hasPrefix("swiftprint") && $0.hasSuffix(".\(section)") }.sorted() ?? []
            guard let built, !pages.isEmpty else {
                throw PrintError(.inputUnreadable, path: products + "/man", "holds no manual pages: build them (scripts/build-release)")
            }
            try makeFolder(installed, mode: 0o755, &manifest)
            for page in pages { try copy(built + "/" + page, to: installed + "/" + page, mode: 0o644, &manifest) }
        }
        for (built, target) in completionScripts {
            try makeFolder((target as NSString).deletingLastPathComponent, mode: 0o755, &manifest)
            let source = FileManager.default.fileExists(atPath: products + "/" + built) ? products + "/" + built : target
            try copy(source, to: target, mode: 0o644, &manifest)
        }
    }
}
