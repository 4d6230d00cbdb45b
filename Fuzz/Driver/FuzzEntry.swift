import Foundation
import FuzzTargets

// swiftprint-fuzz: one fuzz target (Fuzz/Targets) as a program. Built by scripts/fuzz with
// -DFUZZING and libFuzzer, it is libFuzzer's target: SWIFTPRINT_FUZZ_TARGET names which one,
// and libFuzzer's own flags and corpus folders follow. Built as any other product, it replays
// files through a target, so a finding is checked without the fuzzing toolchain:
//
//     swiftprint-fuzz list
//     swiftprint-fuzz words TARGET          the dictionary words swiftprint declares for it
//     swiftprint-fuzz TARGET FILE-OR-FOLDER...

/// Every stream of every output goes through the splicer (CQPDFShim/spliced_streams.cpp), not
/// only those of 1 MB and more, which no fuzzed input reaches; set before any job.
func spliceEveryStream() { setenv("SWIFTPRINT_SPLICED_STREAM_MINIMUM", "0", 1) }

#if FUZZING
/// The target libFuzzer drives, named once per process.
let fuzzed: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["SWIFTPRINT_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("swiftprint-fuzz: SWIFTPRINT_FUZZ_TARGET=\(name) names no target; the targets are \(names)\n".utf8))
        exit(64)
    }
    spliceEveryStream()
    return target
}()

/// SWIFTPRINT_FUZZ_REPEAT=N runs each input N times: with `-runs=1 FILE`, the leak report at
/// exit then tells a leak per input (it grows with N) from memory a library keeps once.
let repeats = ProcessInfo.processInfo.environment["SWIFTPRINT_FUZZ_REPEAT"].flatMap { Int($0) } ?? 1

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    for _ in 0 ..< max(1, repeats) { fuzzed.run(data) }
    return 0
}
#else
@main
enum FuzzReplay {
    static func main() {
        spliceEveryStream()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["list"] {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.ciSeconds)\t\(target.reaches)") }
            return
        }
        // libFuzzer's dictionary format: one quoted word a line, \\ and \" escaped, bytes as \xNN.
        if arguments.count == 2, arguments[0] == "words", let target = FuzzTarget.named(arguments[1]) {
            for word in target.declaredWords() {
                let escaped = word.utf8.map { byte -> String in
                    switch byte {
                    case UInt8(ascii: "\\"), UInt8(ascii: "\""): return "\\" + String(UnicodeScalar(byte))
                    case 0x20 ..< 0x7f: return String(UnicodeScalar(byte))
                    default: return String(format: "\\x%02X", byte)
                    }
                }.joined()
                print("\"\(escaped)\"")
            }
            return
        }
        guard let name = arguments.first, let target = FuzzTarget.named(name), arguments.count > 1 else {
            fail(64, "usage: swiftprint-fuzz list | swiftprint-fuzz TARGET FILE-OR-FOLDER...; the targets are "
                 + FuzzTarget.all.map(\.name).joined(separator: ", "))
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { fail(66, "\(file): cannot be read") }
                // Said before the run: a crash's last line names its input.
                FileHandle.standardError.write(Data("\(target.name): \(file)\n".utf8))
                switch target.run(data) {
                case .read: print("read     \(file)")
                case .refused(let error): print("refused  \(file): \(error.message)")
                }
                count += 1
            }
        }
        print("\(target.name): \(count) inputs, each ended with a page or a PrintError")
    }

    /// The file at `path`, or the files in the folder (sorted, hidden ones left out).
    static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { fail(66, "\(path): no such file or folder") }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
            .filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue }
    }

    static func fail(_ status: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data("swiftprint-fuzz: \(message)\n".utf8))
        exit(status)
    }
}
#endif
