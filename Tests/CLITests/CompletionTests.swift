import Foundation
import TestSupport
import Testing

/// Shell completion as a user meets it: bash, with the script `swiftprint
/// --generate-completion-script bash` writes (what the package and `install` put in
/// bash-completion's folder), asked for the candidates of a line as bash asks when Tab is pressed.
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
}
