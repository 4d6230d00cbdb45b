import CQPDF
import Foundation
import PrintModel
import PrintSupport

/// A temporary file, removed from its folder as soon as it is made (nothing of it can be left
/// behind, whatever ends the process), that a document's images' compressed samples are
/// appended to as they come and read back from when the document is written.
final class ImageSpool {
    private let descriptor: Int32
    /// Bytes written so far.
    private(set) var length: Int64 = 0
    /// Why a write failed (a full disk), naming the temporary folder (the job's document names
    /// itself: the error is the one document's of a one-document job).
    private(set) var failure: PrintError?

    init() throws {
        descriptor = try TemporaryFiles.makeUnlinked(prefix: "swiftprint-images-", for: "the job's images")
    }

    deinit { close(descriptor) }

    /// The engine's entry for the compressed samples: `context` is an unretained spool.
    static let append: spq_write_fn = { context, data, length in
        let spool = Unmanaged<ImageSpool>.fromOpaque(context!).takeUnretainedValue()
        return spool.append(UnsafeRawBufferPointer(start: data, count: length)) ? 0 : 1
    }

    private func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(length) + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                failure = PrintError.system(.jobFailed, path: nil, "cannot write the job's images to a temporary file in \(TemporaryFiles.folder)",
                                            errno: n < 0 ? errno : ENOSPC)
                return false
            }
            done += n
        }
        length += Int64(bytes.count)
        return true
    }

    /// One image's bytes in the spool: from where the spool ended when it began to where the
    /// spool ended when it was finished.
    final class Slice {
        let spool: ImageSpool
        let start: Int64
        private(set) var end: Int64

        init(spool: ImageSpool) { self.spool = spool; start = spool.length; end = start }

        /// The image is finished: its bytes end where the spool does now.
        func finish() { end = spool.length }

        /// Gives the bytes to `write`, a piece at a time, stopping when it returns false.
        func copy(to write: (UnsafeRawBufferPointer) -> Bool) throws {
            if let failure = FileBytes.copy(spool.descriptor, from: start, count: end - start, to: write) {
                throw PrintError.system(.jobFailed, path: nil, "cannot read the job's images back from their temporary file in \(TemporaryFiles.folder)",
                                        errno: failure == 0 ? EIO : failure)
            }
        }
    }
}
