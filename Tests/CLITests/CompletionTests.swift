import Foundation
import TestSupport
import Testing

/// Shell completion as a user meets it: bash, with the script `swiftprint
/// --generate-completion-script bash` writes (what the package and `install` put in
/// bash-completion's folder), asked for the candidates of a line as bash asks when Tab is pressed;
/// zsh and fish, each an interactive shell on a terminal, with a line typed and Tab pressed.
@Suite struct CompletionTests {
    /// The candidates bash offers for the last of `words` (after `swiftprint`), run in `folder`.
    static func complete(_ words: [String], in folder: String? = nil) throws -> [String] {
        let dir = try temporaryDirectory()
        let script = dir + "/swiftprint.bash"
        let generated = try Tool.run(Tool.swiftprint, ["--generate-completion-script", "bash"])
        #expect(generated.status == 0, "\(generated.stderr)")
        try generated.stdout.write(to: URL(fileURLWithPath: script))
        // The function `complete -p` names is called as bash calls it: command, word, previous word.
        let driver = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            function=$(complete -p swiftprint | sed -E 's/.*-F ([^ ]+).*/\\1/')
            COMPREPLY=()
            "$function" swiftprint "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try Tool.run("/bin/bash", ["-c", (folder.map { "cd '\($0)' && " } ?? "") + driver, "drive", script, Tool.swiftprint] + words)
        #expect(r.status == 0, "\(r.stderr)")
        return r.text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    @Test func subcommandsAndJobFlagsComplete() throws {
        #expect(try Self.complete(["conv"]) == ["convert"])
        #expect(try Self.complete(["convert", "--si"]) == ["--sides"])
        // Flags on by default complete both ways.
        let wrap = try Self.complete(["convert", "--no-wr"])
        #expect(wrap == ["--no-wrap"], "\(wrap)")
    }

    @Test func valuesCompleteFromTheOptionsDeclarations() throws {
        #expect(try Self.complete(["convert", "--sides", "two"]) == ["two-sided-long-edge", "two-sided-short-edge"])
        #expect(try Self.complete(["print", "--output-format", "p"]) == ["pdf", "pwg-raster"])
        // Paper names in the case typed: a4 as well as A4 names the paper.
        let media = try Self.complete(["convert", "--media", "a"])
        #expect(media.contains("a4") && media.contains("a5"), "\(media)")
        #expect(try Self.complete(["convert", "--media", "Let"]).contains("Letter"))
        // `--sides=two` as bash splits it at the `=`; and Tab right after the `=`.
        #expect(try Self.complete(["convert", "--sides", "=", "two"]) == ["two-sided-long-edge", "two-sided-short-edge"])
        #expect(try Self.complete(["convert", "--sides", "="]) == ["=one-sided", "=two-sided-long-edge", "=two-sided-short-edge"])
    }

    /// Documents complete by the types swiftprint prints; folders always.
    @Test func documentsCompleteByPrintableType() throws {
        let dir = try temporaryDirectory()
        for name in ["report.pdf", "photo.JPG", "notes.md", "archive.xyz", "core"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("x".utf8)))
        }
        try FileManager.default.createDirectory(atPath: dir + "/scans", withIntermediateDirectories: true)
        let all = try Self.complete(["convert", ""], in: dir)
        #expect(all == ["notes.md", "photo.JPG", "report.pdf", "scans/"], "\(all)")
        #expect(try Self.complete(["print", "-d", "Office", "sc"], in: dir) == ["scans/"])
    }

    /// The interactive shells whose completion is driven by typing (bash's is driven above).
    enum Shell: String, CaseIterable, CustomTestStringConvertible {
        case zsh, fish
        var testDescription: String { rawValue }
        static var installed: Bool { allCases.allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0.rawValue) } }
    }

    /// `shell`, started without startup files on a terminal, in `folder`, with swiftprint's
    /// completion script loaded as its completion system loads it, and ready for a line.
    static func session(_ shell: Shell, in folder: String? = nil) throws -> TerminalSession {
        let dir = try temporaryDirectory()
        let script = dir + "/" + (shell == .zsh ? "_swiftprint" : "swiftprint.fish")
        let generated = try Tool.run(Tool.swiftprint, ["--generate-completion-script", shell.rawValue])
        #expect(generated.status == 0, "\(generated.stderr)")
        try generated.stdout.write(to: URL(fileURLWithPath: script))
        // The scripts run `swiftprint` by name, as a user's PATH finds it; fish keeps its
        // history and settings under the XDG folders.
        let bin = (Tool.swiftprint as NSString).deletingLastPathComponent
        let environment = ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                           "HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "XDG_DATA_HOME": dir + "/data"]
        let session = switch shell {
        case .zsh: try TerminalSession("/usr/bin/zsh", ["-f", "-i"], environment: environment, in: folder)
        case .fish: try TerminalSession("/usr/bin/fish", ["--no-config", "-i"], environment: environment, in: folder)
        }
        // The shell says it is ready with what it computes, not what was typed (which it shows).
        switch shell {
        // zsh lists the candidates at the first Tab even when they share a beginning it puts in
        // (no_list_ambiguous), as fish does.
        case .zsh: session.type("stty cols 160 rows 40; unsetopt list_ambiguous; autoload -Uz compinit && compinit -u -D; source \(script); echo sp-ready-$((40+2))\r")
        case .fish: session.type("stty cols 160 rows 40; source \(script); echo sp-ready-(math 40+2)\r")
        }
        let ready = session.wait { $0.contains("sp-ready-42") }
        #expect(ready.contains("sp-ready-42"), "\(shell) did not start: \(ready)")
        session.forget()
        return session
    }

    /// What the terminal shows after `line` and Tab, once it shows every one of `expected`
    /// (or after the wait, for the test to report).
    static func tab(_ shell: Shell, _ line: String, showing expected: [String], in folder: String? = nil) throws -> String {
        let session = try session(shell, in: folder)
        session.type(line + "\t")
        let screen = session.wait { screen in expected.allSatisfy { screen.contains($0) } }
        #expect(expected.allSatisfy { screen.contains($0) }, "\(shell) showed, after '\(line)' and Tab: \(screen)")
        return screen
    }

    @Test(.enabled(if: Shell.installed, "zsh and fish are not installed (scripts/setup installs them)"), arguments: Shell.allCases)
    func zshAndFishCompleteSubcommandsAndJobFlags(_ shell: Shell) throws {
        try Self.tab(shell, "swiftprint conv", showing: ["swiftprint convert"])
        try Self.tab(shell, "swiftprint convert --si", showing: ["--sides"])
    }

    /// The values come from the options' declarations, through `swiftprint ---completion`: the
    /// scripts themselves know no paper names or sides.
    @Test(.enabled(if: Shell.installed, "zsh and fish are not installed (scripts/setup installs them)"), arguments: Shell.allCases)
    func zshAndFishCompleteValuesFromTheDeclarations(_ shell: Shell) throws {
        try Self.tab(shell, "swiftprint convert --sides two", showing: ["sided-long-edge", "sided-short-edge"])
        try Self.tab(shell, "swiftprint print --media Let", showing: ["Letter"])
    }

    @Test(.enabled(if: Shell.installed, "zsh and fish are not installed (scripts/setup installs them)"), arguments: Shell.allCases)
    func zshAndFishCompleteDocumentsByPrintableType(_ shell: Shell) throws {
        let dir = try temporaryDirectory()
        for name in ["report.pdf", "notes.md", "archive.xyz"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data("x".utf8)))
        }
        try FileManager.default.createDirectory(atPath: dir + "/scans", withIntermediateDirectories: true)
        let screen = try Self.tab(shell, "swiftprint convert ", showing: ["report.pdf", "notes.md", "scans/"], in: dir)
        #expect(!screen.contains("archive.xyz"), "\(shell) offered a file swiftprint does not print: \(screen)")
    }

    /// Where install puts zsh's and fish's scripts, for the package (/usr) and for a source
    /// build (/usr/local), is where each shell looks outside a desktop session (no XDG_DATA_DIRS:
    /// ssh, a console). fish reads /usr/local/share only when XDG_DATA_DIRS names it.
    @Test(.enabled(if: Shell.installed, "zsh and fish are not installed (scripts/setup installs them)"), arguments: ["/usr", "/usr/local"])
    func installPutsTheScriptsWhereEachShellLooks(prefix: String) throws {
        let stage = try temporaryDirectory()
        let staged = try Tool.run(Tool.swiftprint, ["install", "--part", "files", "--destdir", stage, "--prefix", prefix])
        #expect(staged.status == 0, "\(staged.stderr)")
        let home = try temporaryDirectory()
        for (shell, name, listing) in [(Shell.zsh, "_swiftprint", "print -l -- $fpath"), (.fish, "swiftprint.fish", "string join \\n -- $fish_complete_path")] {
            let found = FileManager.default.enumerator(atPath: stage)?.compactMap { $0 as? String }.filter { $0.hasSuffix("/" + name) } ?? []
            #expect(found.count == 1, "\(shell): install staged \(found)")
            guard let script = found.first else { continue }
            let folder = "/" + (script as NSString).deletingLastPathComponent
            let looks = try Tool.run("/usr/bin/env", ["-u", "XDG_DATA_DIRS", "HOME=" + home, "/usr/bin/" + shell.rawValue, "-c", listing])
            let folders = looks.text.split(separator: "\n").map(String.init)
            #expect(folders.contains(folder), "\(shell) does not look in \(folder), where install puts \(name) for --prefix \(prefix): it looks in \(folders)")
        }
    }
}
