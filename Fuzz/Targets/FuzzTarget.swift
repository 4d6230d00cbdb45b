import Foundation
import PrintModel

/// One place where swiftprint parses bytes it did not write, as a fuzzer drives it: `run` is
/// given any bytes and must end (a thrown `PrintError` is a good end: the input was refused
/// with a reason). A crash, a hang, a sanitizer report or an error of any other kind is a
/// finding. `swiftprint-fuzz` (Fuzz/Driver) runs one target under libFuzzer, or replays files
/// through it; the test suite replays every seed and every input that ever failed.
public struct FuzzTarget: Sendable {
    /// The target's name: `raster`, and its folder `Fuzz/Corpus/raster/`.
    public let name: String
    /// What of swiftprint (and of which C libraries) the bytes reach.
    public let reaches: String
    /// Seconds CI's smoke run gives the target: 12, and 30 for the markup target, which runs a
    /// few inputs a second (a WebKit load and print each).
    public let ciSeconds: Int
    /// Words for libFuzzer's dictionary that swiftprint itself declares (option names), beside
    /// the target's own `Fuzz/Corpus/TARGET/TARGET.dict`.
    public let declaredWords: @Sendable () -> [String]
    let body: @Sendable (Data, FuzzScratch) throws -> Void

    init(_ name: String, reaches: String, ciSeconds: Int = 12, declaredWords: @escaping @Sendable () -> [String] = { [] },
         _ body: @escaping @Sendable (Data, FuzzScratch) throws -> Void) {
        self.name = name
        self.reaches = reaches
        self.ciSeconds = ciSeconds
        self.declaredWords = declaredWords
        self.body = body
    }

    /// How an input ended, when it ended well.
    public enum Outcome: Sendable {
        case read
        /// Refused with a reason, as bad input should be.
        case refused(PrintError)
    }

    /// Runs the target on `data`. Returns when the input was read or refused with a
    /// `PrintError`; stops the process (a finding the fuzzer keeps) on any other outcome.
    @discardableResult
    public func run(_ data: Data) -> Outcome {
        let scratch = FuzzScratch.shared
        defer { scratch.clear() }
        do { try body(data, scratch) } catch let error as PrintError {
            return .refused(error)
        } catch {
            fatalError("\(name): an error that is not a PrintError escaped: \(type(of: error)): \(error)")
        }
        return .read
    }

    /// Every target, in the order `scripts/fuzz all` runs them.
    public static let all: [FuzzTarget] = detectionTargets + textTargets + imageTargets + rasterTargets + pdfTargets
        + mapTargets + cupsTargets + markupTargets

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// The files a target writes its input to (most parsers read paths): one folder per process,
/// in `$TMPDIR`, emptied after each input and removed at exit.
public final class FuzzScratch: Sendable {
    /// One per process: a fuzz process runs one input at a time (libFuzzer without -fork, and
    /// the replay loop).
    static let shared = FuzzScratch()
    let folder: String

    private init() {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/swiftprint-fuzz.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("cannot make a scratch folder in \(base): \(String(cString: strerror(errno)))")
        }
        folder = String(cString: made)
        atexit { try? FileManager.default.removeItem(atPath: FuzzScratch.shared.folder) }
    }

    /// `data` written to a file named `name` in the folder; its path.
    func file(_ name: String, _ data: Data) -> String {
        let path = folder + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            fatalError("the fuzz scratch folder \(folder) cannot be written")
        }
        return path
    }

    /// A path in the folder for an output.
    func path(_ name: String) -> String { folder + "/" + name }

    func clear() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            unlink(folder + "/" + name)
        }
    }
}
