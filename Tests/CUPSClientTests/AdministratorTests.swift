@testable import CUPSClient
import Foundation
import Testing

/// Who administers CUPS by its own rule (cups-files.conf's `SystemGroup`): the web Print
/// Center shows such a user every user's jobs, anyone else their own.
@Suite struct AdministratorTests {
    func configuration(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cups-files-\(UUID().uuidString).conf").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func systemGroupDecidesAndRootAlwaysAdministers() throws {
        // The account running the tests, by its primary group's name.
        let me = try #require(getpwuid(geteuid())), group = try #require(getgrgid(me.pointee.pw_gid))
        let account = String(cString: me.pointee.pw_name), primary = String(cString: group.pointee.gr_name)
        let named = try configuration("# cups-files.conf\nUser lp\nSystemGroup nosuchgroup \(primary)\n")
        let other = try configuration("SystemGroup nosuchgroup\n")
        defer { try? FileManager.default.removeItem(atPath: named); try? FileManager.default.removeItem(atPath: other) }
        #expect(PrintCenter.isAdministrator(account, configuration: named))
        #expect(PrintCenter.isAdministrator(account, configuration: other) == (account == "root"))
        #expect(PrintCenter.isAdministrator("root", configuration: other))
        // A name with no account here (a phone's requesting-user-name, CUPS_USER) never does.
        #expect(!PrintCenter.isAdministrator("no-such-account-here", configuration: named))
    }
}
