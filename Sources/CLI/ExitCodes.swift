import ArgumentParser
import SwiftPrint

/// The documented exit codes (BSD sysexits, as CUPS tools and mail programs use them).
enum ExitCodes {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let unavailable: Int32 = 69
    static let noPermission: Int32 = 77
    static let tempFail: Int32 = 75

    static func code(for error: PrintError) -> Int32 {
        switch error.code {
        case .inputUnreadable: return noInput
        case .invalidInput, .noContent, .unknownFormat, .limitExceeded: return dataError
        case .invalidOption, .unsupportedByPrinter: return usage
        case .jobFailed: return tempFail
        case .outputFailed: return cannotCreate
        case .outputWriteFailed: return ioError
        case .notAvailable: return unavailable
        case .passwordRequired, .printingNotAllowed: return noPermission
        case .cancelled: return 130
        default: return software
        }
    }
}

/// Prints one line for a failed job, naming the file and the problem, and the flag that sets
/// right the option the error names (`flag`: a job option's, unless a command has its own).
func fail(_ error: PrintError, flag: (String) -> String? = jobFlag) -> ExitCode {
    let option = error.option.flatMap(flag).map { " (\($0))" } ?? ""
    FileHandleStderr.write("swiftprint: \(error)\(option)\n")
    return ExitCode(ExitCodes.code(for: error))
}

/// The command line's flag for the job option `name` (`document-password` → `--password`).
func jobFlag(_ name: String) -> String? { JobSettings.option(named: name).map { "--" + $0.commandLineName } }
