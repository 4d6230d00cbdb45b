import Foundation
import Testing
import TestSupport
@testable import CUPSFilter
@testable import CUPSBackend
import CUPSCommon
import CUPSLibrary
import CUPSQueue
import SwiftPrint

/// The filter's and backend's logic without cupsd: option reading, names, completeness.
struct FilterAndBackendTests {
    @Test("job options read by libcups and mapped like convert's flags", arguments: [
        ("media=A5 page-ranges=1-2", "iso_a5_148x210mm", "1-2"),
        ("PageSize=Letter landscape", "na_letter_8.5x11in", nil),
        // (A value with spaces, as cupsd writes it in argv[5].)
        ("media=iso_a4_210x297mm,tray-1 swiftprint-header=Title\\ {title}", "iso_a4_210x297mm", nil),
    ] as [(String, String, String?)])
    func options(text: String, media: String, ranges: String?) throws {
        let o = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", text], environment: [:])
        #expect(o.info.media?.pwgName == media)
        #expect(o.info.pageRanges.map { "\($0)" } == ranges)
        if text.contains("header") { #expect(o.header == "Title {title}") }
    }

    /// Words of a text option split off by `lp` (an unquoted value with spaces) fail the job.
    @Test func wordsSplitOffATextOptionFailTheJob() {
        #expect(throws: PrintError.self) {
            try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", "swiftprint-font=DejaVu Sans Mono"], environment: [:])
        }
        #expect(throws: PrintError.self) {
            try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", "{page} of"], environment: [:])
        }
    }

    @Test func copiesComeFromArgvAndColourModeFromItsIPPName() throws {
        let o = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "3", "print-color-mode=monochrome fit-to-page scaling=50 position=top-left"],
                                          environment: [:])
        #expect(o.info.copies == 3)
        #expect(o.info.outputType == .grayscale)
        #expect(o.placement.scaling == .fit)
        #expect(o.placement.percentOfArea == 50 && o.placement.position == .topLeft)
    }

    @Test func everyDocumentNameOfAJob() {
        let text = "number-up=1 document-name-supplied=a.txt document-name-supplied='my photo.jpg' document-name-supplied=c\\ d.pdf job-uuid=x"
        #expect(CUPSOptions.allValues(of: "document-name-supplied", in: text) == ["a.txt", "my photo.jpg", "c d.pdf"])
    }

    @Test func aCharsetTheSenderNamedIsTheTextEncoding() throws {
        let named = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", ""], environment: ["CHARSET": "shift_jis"])
        #expect(named.text.encoding == "shift_jis")
        let usual = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", ""], environment: ["CHARSET": "utf-8"])
        #expect(usual.text.encoding == nil)
    }

    @Test func aBadValueIsAnErrorNamingTheOption() {
        #expect(throws: PrintError.self) {
            try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", "media=Postcard-Size-Z"], environment: [:])
        }
    }

    @Test func theQueueDefaultsComeFromItsPPD() throws {
        let definition = QueueDefinition(printable: [("public.plain-text", ["text/plain"])], cupsTypes: ["text/plain"],
                                         rules: "", defaultMedia: .letter)
        var ppd = definition.ppd
        ppd = ppd.replacingOccurrences(of: "*Defaultswiftprint-header: None", with: "*Defaultswiftprint-header: TitlePage")
        let path = try temporaryDirectory() + "/q.ppd"
        try ppd.write(toFile: path, atomically: false, encoding: .utf8)
        let o = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", ""], environment: ["PPD": path])
        #expect(o.queueMedia?.pwgName == "na_letter_8.5x11in")
        #expect(o.header == "{title}||{page}/{pages}" && o.headerIsQueueDefault && !o.footerIsQueueDefault)
        // The job's own option wins over the queue's default.
        let job = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", "swiftprint-header=None media=A4"], environment: ["PPD": path])
        #expect(job.header == nil)
        let own = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", "header={title}"], environment: ["PPD": path])
        #expect(own.header == "{title}" && !own.headerIsQueueDefault, "the job's own header ranks above a document's boxes")
        #expect(job.paper().media.pwgName == "iso_a4_210x297mm")
    }

    /// Each option the PPD offers is in it with every choice, and each choice set as the queue's
    /// default means what the same keyword means in a job (`lp -o`).
    @Test(arguments: JobSettings.ppdOptions.map(\.name))
    func aPPDOptionMeansWhatTheSameJobOptionMeans(name: String) throws {
        let option = try #require(JobSettings.option(named: name))
        let presentation = try #require(option.ppd)
        let definition = QueueDefinition(printable: [("public.plain-text", ["text/plain"])], cupsTypes: ["text/plain"],
                                         rules: "", defaultMedia: .letter)
        let ppd = definition.ppd
        #expect(ppd.contains("*OpenUI *\(name)/\(presentation.label): PickOne"))
        #expect(ppd.contains("*Default\(name): \(presentation.defaultKeyword)"))
        let folder = try temporaryDirectory()
        let queue = folder + "/queue.ppd"
        try ppd.write(toFile: queue, atomically: false, encoding: .utf8)
        var meanings: [JobSettings] = []
        for choice in presentation.choices {
            #expect(ppd.contains("*\(name) \(choice.keyword)/\(choice.label): \"\""))
            let path = folder + "/\(choice.keyword).ppd"
            try ppd.replacingOccurrences(of: "*Default\(name): \(presentation.defaultKeyword)", with: "*Default\(name): \(choice.keyword)")
                .write(toFile: path, atomically: false, encoding: .utf8)
            var fromQueue = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", ""], environment: ["PPD": path])
            // Where a header came from is not what it means (it decides only whether a
            // document's own margin boxes replace it).
            fromQueue.headerIsQueueDefault = false
            fromQueue.footerIsQueueDefault = false
            let fromJob = try PrintFilter.settings(arguments: ["swiftprint", "1", "u", "t", "1", "\(name)=\(choice.keyword)"],
                                                  environment: ["PPD": queue])
            #expect(fromQueue == fromJob, "\(name)=\(choice.keyword)")
            meanings.append(fromJob)
        }
        #expect(Set(meanings.map { "\($0)" }).count == presentation.choices.count, "two choices of \(name) mean the same")
    }

    @Test func theQueueRoutesEveryPrintableTypeCUPSCanRecognise() {
        let d = QueueDefinition(printable: [("public.webp", ["image/webp"]), ("public.jpeg", ["image/jpeg", "image/pjpeg"]), ("x.odd", ["application/x-odd"])],
                                cupsTypes: ["image/jpeg"], rules: "image/webp\t\twebp (string(0,RIFF) + string(8,WEBP))\n",
                                defaultMedia: .a4)
        #expect(d.routedTypes == ["image/jpeg", "image/webp"])
        #expect(d.unroutableTypes == ["x.odd"])
        #expect(d.ppd.contains("*cupsFilter2: \"image/webp application/vnd.swiftprint-pdf 0 swiftprint\""))
        #expect(d.ppd.contains("*DefaultPageSize: A4"))
        #expect(d.typesFile.contains("image/webp\t\twebp (string(0,RIFF)"))
        #expect(!d.typesFile.contains("image/jpeg"))
    }

    @Test("file names from job strings", arguments: [
        ("../../etc/passwd", "etc_passwd"),
        ("report.pdf", "report.pdf"),
        ("...", "untitled"),
        ("a\u{0}b\u{1B}c\nd", "a_b_c_d"),
        ("Отчёт 年報", "Отчёт 年報"),
        ("-rf", "rf"),
    ])
    func safeNames(input: String, expected: String) {
        #expect(SafeFileName.component(input) == expected)
    }

    @Test func longNamesAreCutBetweenCharacters() {
        let name = SafeFileName.component(String(repeating: "年", count: 300))
        #expect(name.utf8.count <= SafeFileName.maximumBytes)
        #expect(name.allSatisfy { $0 == "年" })
    }

    @Test func onlyAWholePDFIsComplete() throws {
        let pdf = try temporaryDirectory() + "/t.pdf"
        #expect(try Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/multilingual.txt", "-o", pdf]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
        var whole = PDFCompleteness()
        for chunk in stride(from: 0, to: bytes.count, by: 1000) { whole.add(Array(bytes[chunk..<min(chunk + 1000, bytes.count)])) }
        #expect(whole.isComplete)
        var cut = PDFCompleteness()
        cut.add(Array(bytes.prefix(bytes.count - 10)))
        #expect(!cut.isComplete)
        var empty = PDFCompleteness()
        empty.add([])
        #expect(!empty.isComplete)
    }

    @Test func theBackendListsItselfAndRefusesRawFiles() throws {
        let backend = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-backend"
        let list = try Tool.run(backend, [])
        #expect(list.status == 0)
        #expect(list.text.hasPrefix("file swiftprint:/var/spool/swiftprint "))
        let dir = try temporaryDirectory()
        let raw = try Tool.run(backend, ["7", "me", "mystery.bin", "1", "", "/etc/hostname"], environment: ["DEVICE_URI": "swiftprint:" + dir])
        #expect(raw.status == 1)
        #expect(raw.stderr.contains("ERROR: swiftprint: mystery.bin: CUPS could not tell what kind of file this is"))
    }

    @Test func theBackendSavesAWholePDFAndNothingElse() throws {
        let backend = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-backend"
        let dir = try temporaryDirectory()
        let pdf = try Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/multilingual.txt", "-o", "-"]).stdout
        // A sender with no account here, saved by the guest account (as root) or by whoever runs it.
        let uri = "swiftprint:" + dir + "?guest=nobody"
        let ok = try Tool.run(backend, ["9", "nobody-here", "notes.txt", "1", ""], stdin: pdf, environment: ["DEVICE_URI": uri])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/nobody-here/9-notes.txt.pdf") == pdf)
        let cut = try Tool.run(backend, ["10", "nobody-here", "cut.txt", "1", ""], stdin: pdf.prefix(pdf.count / 2), environment: ["DEVICE_URI": uri])
        #expect(cut.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/nobody-here") == ["9-notes.txt.pdf"])
    }

    /// cupsd killed after the backend saved a job but before it noted the job's end runs the job
    /// again from the start: the second run replaces the first's file (the same `job-uuid`),
    /// where another job of the same name and number (a cupsd that lost its state) gets a file
    /// of its own.
    @Test func aJobRunAgainIsSavedOnce() throws {
        let backend = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-backend"
        let dir = try temporaryDirectory()
        let pdf = try Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/multilingual.txt", "-o", "-"]).stdout
        let uri = "swiftprint:" + dir + "?guest=nobody"
        func save(uuid: String) throws {
            let r = try Tool.run(backend, ["12", "nobody-here", "report", "1", "job-uuid=\(uuid) number-up=1"], stdin: pdf, environment: ["DEVICE_URI": uri])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try save(uuid: "urn:uuid:5b7c1a9e-0000-4000-8000-000000000001")
        try save(uuid: "urn:uuid:5b7c1a9e-0000-4000-8000-000000000001")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/nobody-here") == ["12-report.pdf"])
        try save(uuid: "urn:uuid:5b7c1a9e-0000-4000-8000-000000000002")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/nobody-here").sorted() == ["12-report (2).pdf", "12-report.pdf"])
    }

    /// A job of two documents runs one backend per document; run again from the start (cupsd
    /// restarted, with a new time-at-processing), each document replaces its own file, while a
    /// job's documents of one run keep theirs, even when their names are the same.
    @Test func aJobOfSeveralDocumentsRunAgainIsSavedOnce() throws {
        let backend = (Tool.swiftprint as NSString).deletingLastPathComponent + "/swiftprint-backend"
        let dir = try temporaryDirectory()
        let pdf = try Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/multilingual.txt", "-o", "-"]).stdout
        let uri = "swiftprint:" + dir + "?guest=nobody"
        func run(_ started: Int, documents: [String], uuid: String = "urn:uuid:5b7c1a9e-0000-4000-8000-000000000003") throws {
            let names = documents.map { "document-name-supplied=\($0)" }.joined(separator: " ")
            for _ in documents {
                let r = try Tool.run(backend, ["14", "nobody-here", "pair", "1", "job-uuid=\(uuid) time-at-processing=\(started) \(names)"],
                                     stdin: pdf, environment: ["DEVICE_URI": uri])
                #expect(r.status == 0, "\(r.stderr)")
            }
        }
        func saved() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir + "/nobody-here").sorted() }
        try run(1_764_400_000, documents: ["a.txt", "b.txt"])
        #expect(try saved() == ["14-a.txt.pdf", "14-b.txt.pdf"])
        try run(1_764_400_090, documents: ["a.txt", "b.txt"])
        #expect(try saved() == ["14-a.txt.pdf", "14-b.txt.pdf"], "the second run replaced the first's files")
        try run(1_764_400_000, documents: ["same.txt", "same.txt"], uuid: "urn:uuid:5b7c1a9e-0000-4000-8000-000000000004")
        // The second document of one name takes the job's title, as it did before.
        let both = ["14-a.txt.pdf", "14-b.txt.pdf", "14-pair.pdf", "14-same.txt.pdf"]
        #expect(try saved() == both)
        try run(1_764_400_500, documents: ["same.txt", "same.txt"], uuid: "urn:uuid:5b7c1a9e-0000-4000-8000-000000000004")
        #expect(try saved() == both)
    }
}
