import Foundation
import TestSupport
import Testing

/// Types an administrator adds in types.tsv with a converter command, without a rebuild.
@Suite struct ConverterTests {
    /// A config folder whose types.tsv adds `.shout` files converted by `script`.
    func setUp(script: String) throws -> (env: [String: String], input: String, dir: String) {
        let dir = try temporaryDirectory()
        try Data("page 1 of the converted document\n".utf8).write(to: URL(fileURLWithPath: dir + "/made.txt"))
        #expect(try swiftprint(["convert", dir + "/made.txt", "-o", dir + "/made.pdf"]).status == 0)
        let converter = dir + "/shout2pdf"
        try Data(("#!/bin/sh\n" + script.replacingOccurrences(of: "MADE", with: dir + "/made.pdf") + "\n").utf8)
            .write(to: URL(fileURLWithPath: converter))
        chmod(converter, 0o755)
        try FileManager.default.createDirectory(atPath: dir + "/config/swiftprint", withIntermediateDirectories: true)
        try Data("org.example.shout\tpublic.data\t\tshout\tShout document\t\(converter) {in} {out}\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/config/swiftprint/types.tsv"))
        try Data([0x00, 0x9F, 0x13, 0x37, 0xFE] + Array(repeating: 0x42, count: 64)).write(to: URL(fileURLWithPath: dir + "/loud.shout"))
        return (["XDG_CONFIG_HOME": dir + "/config"], dir + "/loud.shout", dir)
    }

    @Test func aConverterMakesTheTypePrintable() throws {
        let (env, input, dir) = try setUp(script: "cp MADE \"$2\"")
        let detected = try swiftprint(["detect", input], env: env)
        #expect(detected.text.contains("org.example.shout") && detected.text.contains("handler: converter"), "\(detected.text)")
        let r = try swiftprint(["convert", input, "-o", dir + "/o.pdf", "--footer", "||{page}"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.text(dir + "/o.pdf").contains("page 1 of the converted document"))
    }

    @Test(arguments: [
        ("sleep 5", ["--converter-timeout", "1"], "took longer than 1 s"),
        ("echo 'no fonts here' >&2; exit 3", [String](), "failed (exit 3): no fonts here"),
        ("echo 'not a pdf' > \"$2\"", [String](), "did not produce a usable PDF"),
    ])
    func aFailingConverterSaysWhy(script: String, options: [String], message: String) throws {
        let (env, input, dir) = try setUp(script: script)
        let r = try swiftprint(["convert", input, "-o", dir + "/o.pdf"] + options, env: env)
        #expect(r.status != 0)
        #expect(r.stderr.contains("loud.shout") && r.stderr.contains(message), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
    }
}
