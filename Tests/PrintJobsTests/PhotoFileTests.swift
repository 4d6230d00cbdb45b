import Foundation
import SwiftPrint
import TestSupport
import Testing

/// A photo's bytes are read from its file when the job's PDF is written, not when the job is
/// made: a file that changed in between is an error naming it, and nothing is written.
@Suite struct PhotoFileTests {
    func jpeg(_ name: String, size: String, in dir: String) throws -> String {
        let path = dir + "/" + name
        _ = try Tool.run("convert", ["-size", size, "gradient:red-blue", "-quality", "90", path])
        return path
    }

    @Test(arguments: ["replaced", "appended to"])
    func aPhotoChangedBeforeTheJobIsWrittenIsAnErrorNamingIt(_ change: String) throws {
        let dir = try temporaryDirectory()
        let photo = try jpeg("holiday.jpg", size: "600x400", in: dir)
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(try ImagePrintFormatter(paths: [photo]), startingAtPageAt: 0)
        let job = PrintJob(renderer: renderer, info: PrintInfo(), paper: PrintPaper(media: .a4))
        if change == "replaced" {
            // Another photo renamed over it, as an editor saves.
            let other = try jpeg("other.jpg", size: "300x200", in: dir)
            #expect(rename(other, photo) == 0)
        } else {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: photo))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0xFF, 0xD9]))
            try handle.close()
        }
        let out = dir + "/job.pdf"
        #expect {
            try job.writePDF(to: .file(out))
        } throws: { error in
            guard let e = error as? PrintError else { return false }
            return e.code == .inputUnreadable && e.path == photo && e.message.contains("changed while the job was being made")
        }
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["holiday.jpg"],
                "no partial file beside it")
    }

    /// Unchanged, the photo is stored byte for byte, read when the PDF is written.
    @Test func anUnchangedPhotoIsStoredAsItIs() throws {
        let dir = try temporaryDirectory()
        let photo = try jpeg("holiday.jpg", size: "600x400", in: dir)
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(try ImagePrintFormatter(paths: [photo]), startingAtPageAt: 0)
        let out = dir + "/job.pdf"
        try PrintJob(renderer: renderer, info: PrintInfo(), paper: PrintPaper(media: .a4)).writePDF(to: .file(out))
        #expect(try Tool.run("pdfimages", ["-j", out, dir + "/back"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/back-000.jpg")) == Data(contentsOf: URL(fileURLWithPath: photo)))
    }
}
