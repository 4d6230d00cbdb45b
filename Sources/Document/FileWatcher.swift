import Foundation
import Glibc
import PrintModel
import PrintSupport
import Synchronization

/// Tells when the file at a path is written, replaced by a rename, or removed, by anyone.
///
/// It watches the file's folder with inotify rather than the file: a save that renames a new
/// file over the old one (as PrintDocument's, and most editors', do) leaves a watch on the old
/// inode watching nothing. Events for other names in the folder are ignored. `changed` is
/// called on the watcher's own thread, with the inotify events (`IN_MOVED_TO` …) of what it read.
final class FileWatcher: Sendable {
    /// The write end of the pipe the thread polls: closing it wakes the thread, which ends.
    private let stopWriter: Mutex<Int32?>

    init(path: String, changed: @escaping @Sendable (_ events: UInt32) -> Void) throws {
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { throw PrintError.system(.notAvailable, path: path, "cannot watch the document", errno: errno) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(inotify, folder, mask) >= 0 else {
            let e = errno
            close(inotify)
            throw PrintError.system(.notAvailable, path: path, "cannot watch the document's folder", errno: e)
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let e = errno
            close(inotify)
            throw PrintError.system(.notAvailable, path: path, "cannot watch the document", errno: e)
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopWriter = Mutex(pipeEnds[1])
        let stopReader = pipeEnds[0]
        Thread.detachNewThread {
            Self.watch(inotify: inotify, stop: stopReader, name: name, changed: changed)
            close(inotify)
            close(stopReader)
        }
    }

    /// Ends the watch (once; later calls do nothing). The thread stops when it wakes to the
    /// closed pipe; a `changed` call under way finishes.
    func stop() {
        if let fd = stopWriter.withLock({ fd in defer { fd = nil }; return fd }) { close(fd) }
    }

    deinit { stop() }

    private static func watch(inotify: Int32, stop: Int32, name: String, changed: @Sendable (UInt32) -> Void) {
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let n = read(inotify, buffer, capacity)
            guard n > 0 else { if n < 0, errno == EINTR { continue }; return }
            var offset = 0
            var events: UInt32 = 0
            while offset < n {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                // Events were lost: any of them may have been the file's.
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { events |= event.mask }
                let header = MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: Int(event.len))
                    let eventName = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    if eventName == name { events |= event.mask }
                }
                offset += header + Int(event.len)
            }
            if events != 0 { changed(events) }
        }
    }
}
