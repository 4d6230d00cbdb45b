import CUPSCommon
import CUPSLibrary
#if canImport(Glibc)
import Glibc
#endif

/// The CUPS backend behind the `swiftprint` queue (URI `swiftprint:/var/spool/swiftprint`),
/// the Printer Simulator's "save the original": each job's PDF lands in
/// `<spool>/<user>/<job>-<title>.pdf`.
///
/// It is installed mode 0700 so that cupsd runs it as root: it checks the spool folder (root's,
/// reached without following links), makes the owner's folder, gives it to the owner and
/// becomes the owner before it writes anything. The owner is the sender's account, or the
/// queue's guest account for a sender with none here; without either the job is held: root
/// writes no job's file. Every document is written to a temporary file in the same folder and
/// linked into place only when it is a whole PDF, never over an existing file. Nothing a job
/// supplies reaches a shell.
public enum SpoolBackend {
    public typealias Status = BackendStatus

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
        let uriText = environment["DEVICE_URI"] ?? "\(scheme):\(defaultSpool)"
        guard let uri = SpoolDeviceURI(uriText) else {
            CUPSMessages.send("ERROR", "swiftprint: the device URI must be swiftprint:/absolute/folder (with no . or .. in it, encoded or not), optionally ?guest=ACCOUNT; not \(uriText)")
            return Status.stop.rawValue
        }
        // cupsd runs one backend per document (the PPD's cupsSingleFile), in order, and names
        // every document in each run's options.
        let documents = CUPSOptions.allValues(of: "document-name-supplied", in: arguments[5])
        let job = SpoolJob(id: SafeFileName.component(arguments[1], fallback: "0"),
                           user: arguments[2], title: arguments[3], documents: documents, spool: uri.folder,
                           guestAccount: uri.guestAccount, uuid: CUPSOptions.allValues(of: "job-uuid", in: arguments[5]).first,
                           run: CUPSOptions.allValues(of: "time-at-processing", in: arguments[5]).first)
        if arguments.count == 7 {
            // cupsd hands the backend the file itself only when no filter ran: it could not
            // tell the type (it sends unknown files raw), so nothing turned it into PDF.
            CUPSMessages.send("ERROR", "swiftprint: \(arguments[3]): CUPS could not tell what kind of file this is, so nothing converted it; name its type (lp -o document-format=text/plain …) or use swiftprint convert")
            return Status.failed.rawValue
        }
        return job.save(from: STDIN_FILENO).rawValue
    }
}
