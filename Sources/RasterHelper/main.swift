// swiftprint-raster: draws a job's PDF as PWG or Apple raster, for a job whose output is raster
// (RasterHelperProcess runs it and says why it is a process of its own).
//
// It answers one request (RasterHelperRequest, one JSON line on standard input: the PDF and the
// raster settings) on standard output, as frames (RasterHelperStream): the raster stream's bytes,
// the end of each sheet, then its reply (the sheets written, or the failure, typed).
import Foundation
import PrintHelpers
import PrintModel
import RasterOutput

// libcups, which writes the raster stream, loads GnuTLS, whose constructor sets up its
// cryptography and PKCS #11 modules (0.7 MB resident). This process makes no connection, and
// opens libcups later: GnuTLS is left for libcups to set up if it ever connected.
setenv("GNUTLS_NO_IMPLICIT_INIT", "1", 1)

let stream = RasterHelperStream.Writer(fd: STDOUT_FILENO)
HelperMain.answerOnce(RasterSettings.self, replying: stream.reply) { request, _ -> Int in
    guard let input = request.input else { throw PrintError(.invalidOption, "the request names no PDF to draw") }
    let writer = try RasterDocumentWriter(settings: request.task)
    return try writer.write(pdf: input, to: { stream.write($0) }, sheetWritten: stream.sheetEnded)
}
