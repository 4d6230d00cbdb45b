/// swiftprint's version: in `swiftprint --version` and in the User-Agent of tile downloads,
/// which tile servers ask to name the program and its version.
public enum SwiftPrintVersion {
    public static let current = "0.7.0"
}
