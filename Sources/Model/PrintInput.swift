import Foundation

/// An input to print: a file, standard input, or bytes, with what is known of its type.
public struct PrintInput: Sendable {
    /// The file's path, or `-` for standard input.
    public var path: String
    /// Bytes given directly (a Swift value), instead of a file.
    public var data: Data?
    /// The name people know it by: the file name, `stdin`, or a caller's choice.
    public var displayName: String
    /// The MIME type the sender declared (CUPS's CONTENT_TYPE). Used when swiftprint prints
    /// that type; otherwise the content is detected as usual.
    public var declaredMIMEType: String?
    /// The UTI detection decided on, once the input has been routed: handlers read it rather
    /// than sniffing again.
    public var contentType: String?
    /// The first bytes detection read (up to 8 KB), so that a handler does not read them again.
    public var head: Data?

    public init(path: String) {
        self.path = path
        displayName = path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent
    }

    public init(data: Data, name: String) {
        path = name; self.data = data; displayName = name
    }
}
