import Foundation
import TestSupport
import Testing

/// The manual pages `swiftprint manual` makes from the program's own declarations: they say
/// what `--help` says, and man reads them without a warning.
@Suite struct ManualTests {
    static let root = directory() + "/../.."

    /// The pages, made into a fresh folder.
    static func pages() throws -> String {
        let dir = try temporaryDirectory()
        let r = try Tool.run(Tool.swiftprint, ["manual", "--prose", root + "/docs", dir])
        #expect(r.status == 0, "\(r.stderr)")
        return dir
    }

    /// A page as man shows it, without its hyphenation.
    static func render(_ path: String) throws -> (text: String, warnings: String) {
        let r = try Tool.run("man", ["--warnings", "-l", path], environment: ["MANPAGER": "cat", "MANWIDTH": "300", "MAN_KEEP_FORMATTING": ""])
        #expect(r.status == 0, "\(path): \(r.stderr)")
        // Bold and underline as man writes them to a pipe: each letter over-struck.
        let plain = r.text.replacing(/.\x08/, with: "")
        return (plain, r.stderr)
    }

    /// Every flag a command's --help shows is on its page.
    @Test(arguments: ["convert", "print", "preview", "printers", "jobs", "cancel", "center", "detect", "types", "install", "uninstall"])
    func aCommandsPageShowsEveryFlagItsHelpShows(command: String) throws {
        let dir = try Self.pages()
        let help = try Tool.run(Tool.swiftprint, [command, "--help"]).text
        let flags = Set(help.matches(of: /(?:^|[\s\[,(])(--[a-z][a-z0-9-]*)/).map { String($0.1) })
        #expect(flags.count > 2, "\(command): \(flags)")
        let page = try Self.render(dir + "/man1/swiftprint-\(command).1").text
        for flag in flags where flag != "--" {
            #expect(page.contains(flag), "swiftprint-\(command)(1) lacks \(flag)")
        }
    }

    /// man and lexgrog read every page: no warning, and each has a NAME line apropos finds.
    @Test func everyPageReadsWithoutAWarning() throws {
        let dir = try Self.pages()
        let pages = try ["man1", "man7"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: dir + "/" + folder).map { dir + "/" + folder + "/" + $0 }
        }
        #expect(pages.count == 13, "\(pages)")
        for page in pages {
            #expect(try Self.render(page).warnings.isEmpty, "\(page)")
            let name = try Tool.run("lexgrog", [page])
            #expect(name.status == 0 && name.text.contains(" - "), "\(page): \(name.text)")
        }
        // Every job option says its default, as its declaration gives it: a value fresh settings
        // hold (a keyword, a limit), or what happens when nobody sets it.
        let convert = try Self.render(dir + "/man1/swiftprint-convert.1").text
        let flat = convert.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in ["Values: page, sheet. Default: page.", "Default: 1 (one page a side).", "Default: 200000000.",
                       "Default: lrtb.", "Default: off."] {
            #expect(flat.contains(phrase), "swiftprint-convert(1) lacks \(phrase)")
        }
        let entries = flat.components(separatedBy: "Also set by").count - 1
        #expect(flat.components(separatedBy: ". Default: ").count - 1 >= entries, "an option without its default")
        // The administrator's page lists every option a print job may set, by its CUPS name.
        let queue = try Self.render(dir + "/man7/swiftprint-queue.7").text
        for name in ["number-up", "document-password", "swiftprint-footer", "print-color-mode"] {
            #expect(queue.contains(name), "swiftprint-queue(7) lacks \(name)")
        }
    }
}
