import Foundation
import SwiftPrint

/// Work a command will need, started on other threads before its arguments are parsed
/// (ArgumentParser takes ~6 ms of a short job on the main thread meanwhile).
///
/// Which work depends on the command and, for a document command, on a guess at the first
/// input, made without parsing: a PDF, JPEG or PNG will be placed by the object-level assembler,
/// so its engine (libqpdf and ~25 libraries, ~4 ms to map and relocate) loads; anything else will
/// most likely lay out text, so fontconfig's configuration loads (~4 ms) and the text's font. A
/// wrong guess costs time, never a result: the job still loads what it uses when it uses it.
enum StartupWarming {
    static func begin(arguments: [String]) {
        let command = arguments.dropFirst().first ?? ""
        guard SwiftPrintCommand.documentCommands.contains(where: { $0.configuration.commandName == command }) else {
            // detect and types look types up; the other commands lay out nothing.
            if ["detect", "types"].contains(command) { ContentDetector.startLoadingInBackground() }
            return
        }
        if let input = likelyFirstInput(arguments.dropFirst(2)), willBePlaced(input) {
            AssemblyEngine.startLoadingInBackground()
            ContentDetector.startLoadingInBackground()
            return
        }
        // Text, most likely. One thread loads what the job needs in the order it needs it:
        // libmagic's database and the paper catalogue for detection and the page, then
        // fontconfig and the text's font for the first line. A thread for each would take turns
        // with the main thread, parsing arguments, for the machine's second core (measured on
        // 2 cores: the one-line job took ~1 ms longer).
        FontLoading.promiseLoad()
        Thread.detachNewThread {
            ContentDetector.loadShared()
            _ = MediaCatalogue.shared
            // The text's font, as the job will look it up unless options change it.
            FontLoading.loadHere(preparing: [TextStyle().font])
        }
    }

    /// The first argument that is neither an option nor the output's name and names a regular
    /// file. (An option's value may be taken for it: only the guess is wrong then.)
    static func likelyFirstInput(_ arguments: ArraySlice<String>) -> String? {
        var afterOutputOption = false
        for argument in arguments {
            defer { afterOutputOption = argument == "-o" || argument == "--output" }
            guard !afterOutputOption, !argument.hasPrefix("-") else { continue }
            var status = stat()
            if stat(argument, &status) == 0, status.st_mode & S_IFMT == S_IFREG { return argument }
        }
        return nil
    }

    /// Whether the file starts as a PDF, a JPEG or a PNG does.
    static func willBePlaced(_ path: String) -> Bool {
        let head = ImageFormat.head(of: path)
        return head.starts(with: Array("%PDF-".utf8)) || [.jpeg, .png].contains(ImageFormat(head: head))
    }
}
