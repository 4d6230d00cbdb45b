import Glibc

/// What tells one version of a file from another: its device, inode, size and modification
/// time, as `stat` gives them. A save by anyone, in place or by renaming over it, changes it.
package struct FileVersion: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: timespec

    package init(_ s: stat) {
        device = UInt64(s.st_dev); inode = UInt64(s.st_ino); size = Int64(s.st_size); modified = s.st_mtim
    }

    /// The version of the file at `path` now, or nil when there is no file to `stat`.
    package static func of(_ path: String) -> FileVersion? {
        var s = stat()
        return stat(path, &s) == 0 ? FileVersion(s) : nil
    }

    /// The version of the file open on `descriptor`, or nil when `fstat` fails.
    package static func of(descriptor: Int32) -> FileVersion? {
        var s = stat()
        return fstat(descriptor, &s) == 0 ? FileVersion(s) : nil
    }

    package static func == (a: FileVersion, b: FileVersion) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }
}
