import CUPSCommon
import CUPSLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The CUPS backend behind the `swiftprint` queue (URI `swiftprint:/var/spool/swiftprint`),
/// the Printer Simulator's "save the original": each job's PDF lands in
/// `<spool>/<user>/<job>-<title>.pdf`.
///
/// It is installed mode 0700 so that cupsd runs it as root: it makes the user's folder, gives it
/// to the user when such an account exists, and then writes as that user. Every document is
/// written to a temporary file in the same folder and linked into place only when it is a whole
/// PDF, never over an existing file. Nothing a job supplies reaches a shell.
public enum SpoolBackend {
    /// CUPS_BACKEND_* (cups/backend.h).
    public enum Status: Int32 {
        case ok = 0, failed = 1, authRequired = 2, hold = 3, stop = 4, cancel = 5, retry = 6, retryCurrent = 7
    }

    public static let scheme = "swiftprint"
    public static let defaultSpool = "/var/spool/swiftprint"

    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        if arguments.count == 1 {
            // Discovery: cupsd and lpinfo -v list this device.
            print("file \(scheme):\(defaultSpool) \"swiftprint\" \"Save as PDF (swiftprint)\" \"MFG:swiftprint;MDL:PDF;CMD:PDF;\"")
            return Status.ok.rawValue
        }
        guard arguments.count == 6 || arguments.count == 7 else {
            CUPSMessages.send("ERROR", "usage: swiftprint job-id user title copies options [file]")
            return Status.failed.rawValue
        }
        guard let spool = spoolFolder(uri: environment["DEVICE_URI"] ?? "\(scheme):\(defaultSpool)") else {
            CUPSMessages.send("ERROR", "swiftprint: the device URI must be swiftprint:/absolute/folder, not \(environment["DEVICE_URI"] ?? "")")
            return Status.stop.rawValue
        }
        // cupsd runs one backend per document (the PPD's cupsSingleFile), in order, and names
        // every document in each run's options.
        let documents = CUPSOptions.allValues(of: "document-name-supplied", in: arguments[5])
        let job = SpoolJob(id: SafeFileName.component(arguments[1], fallback: "0"),
                           user: arguments[2], title: arguments[3], documents: documents, spool: spool)
        if arguments.count == 7 {
            // cupsd hands the backend the file itself only when no filter ran: it could not
            // tell the type (it sends unknown files raw), so nothing turned it into PDF.
            CUPSMessages.send("ERROR", "swiftprint: \(arguments[3]): CUPS could not tell what kind of file this is, so nothing converted it; name its type (lp -o document-format=text/plain …) or use swiftprint convert")
            return Status.failed.rawValue
        }
        return job.save(from: STDIN_FILENO).rawValue
    }

    /// The folder a `swiftprint:` URI names: `swiftprint:/var/spool/swiftprint` or `swiftprint:///…`.
    static func spoolFolder(uri: String) -> String? {
        guard uri.hasPrefix("\(scheme):") else { return nil }
        var path = String(uri.dropFirst(scheme.count + 1))
        if path.hasPrefix("//") { path.removeFirst(2) }
        guard path.hasPrefix("/"), !path.split(separator: "/").contains("..") else { return nil }
        return percentDecoded(path)
    }

    /// `%20`-style escapes of a URI path, decoded.
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = [], utf8 = Array(text.utf8), i = 0
        while i < utf8.count {
            if utf8[i] == 0x25, i + 2 < utf8.count, let v = UInt8(String(decoding: utf8[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(v); i += 3
            } else {
                bytes.append(utf8[i]); i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
