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

/// Prints one line for a failed job, naming the file and the problem, and exits.
func fail(_ error: PrintError) -> ExitCode {
    let option = error.option.flatMap(JobSettings.option(named:)).map { " (--\($0.commandLineName))" } ?? ""
    FileHandleStderr.write("swiftprint: \(error)\(option)\n")
    return ExitCode(ExitCodes.code(for: error))
}
