import Foundation
import PrintHelpers
import PrintModel

/// What swiftprint-raster is asked: the job's PDF (the request's input) drawn as raster with
/// these settings.
package typealias RasterHelperRequest = HelperRequest<RasterSettings>

/// What swiftprint-raster writes on its standard output: its raster stream, the end of each
/// sheet, and its reply, as frames of one kind byte, a 4-byte length (little-endian) and that
/// many bytes. One pipe keeps them in order: a sheet is reported after its last byte, and
/// the reply after the stream's.
package enum RasterHelperStream {
    package enum Kind: UInt8 {
        /// Bytes of the raster stream.
        case bytes = 1
        /// Sheet N's bytes are all sent (N, from 1, as 4 bytes little-endian).
        case sheet = 2
        /// The helper's reply (`HelperReply<Int>`, the sheets written; one JSON line), last.
        case reply = 3
    }

    /// The most a reply or a sheet frame may hold; a raster frame may hold any length.
    static let largestMessage = 1 << 20

    /// The helper's side: raster bytes gathered into frames of `frameBytes`, written to a
    /// descriptor. A reader that has gone (the job cancelled) ends the helper at once, from
    /// inside libcups's write if need be (`_exit`: nothing of this process is worth flushing):
    /// nobody is left to draw for.
    package final class Writer {
        private let fd: Int32
        private var pending: [UInt8] = []
        static let frameBytes = 256 << 10

        package init(fd: Int32) {
            self.fd = fd
            pending.reserveCapacity(Self.frameBytes)
        }

        package func write(_ bytes: UnsafeRawBufferPointer) {
            if pending.count + bytes.count > Self.frameBytes { flush() }
            if bytes.count >= Self.frameBytes { send(.bytes, bytes); return }
            pending.append(contentsOf: bytes)
        }

        package func sheetEnded(_ number: Int) {
            flush()
            withUnsafeBytes(of: UInt32(number).littleEndian) { send(.sheet, $0) }
        }

        package func reply(_ line: Data) {
            flush()
            line.withUnsafeBytes { send(.reply, $0) }
        }

        private func flush() {
            guard !pending.isEmpty else { return }
            pending.withUnsafeBytes { send(.bytes, $0) }
            pending.removeAll(keepingCapacity: true)
        }

        private func send(_ kind: Kind, _ payload: UnsafeRawBufferPointer) {
            var header = [kind.rawValue]
            withUnsafeBytes(of: UInt32(payload.count).littleEndian) { header += $0 }
            guard header.withUnsafeBytes({ HelperLine.write(Data($0), to: fd) }),
                  payload.isEmpty || HelperLine.write(Data(payload), to: fd) else { _exit(0) }
        }
    }

    /// The job's side: frames taken apart as the pipe delivers them, in whatever pieces.
    package struct Reader {
        private var header: [UInt8] = []
        private var kind = Kind.bytes
        private var remaining = 0
        private var message: [UInt8] = []
        /// The reply's line, once it has come.
        package private(set) var reply: Data?
        /// A frame begun and not finished: the helper stopped in the middle of one.
        package var isInsideFrame: Bool { !header.isEmpty || remaining > 0 }

        package init() {}

        /// Takes `part` of the stream: raster bytes go to `bytes`, each ended sheet's number to
        /// `sheet`. Returns whether a sheet ended. Throws when the stream is not frames.
        package mutating func take(_ part: UnsafeRawBufferPointer, bytes: (UnsafeRawBufferPointer) throws -> Void,
                                   sheet: (Int) throws -> Void) throws -> Bool {
            var rest = part[...]
            var sheetEnded = false
            while !rest.isEmpty {
                if remaining == 0 && reply != nil {
                    throw Self.noise("\(rest.count) bytes after its reply")
                }
                if remaining == 0 && header.count < 5 {
                    let taken = min(5 - header.count, rest.count)
                    header += rest.prefix(taken)
                    rest = rest.dropFirst(taken)
                    guard header.count == 5 else { break }
                    guard let k = Kind(rawValue: header[0]) else {
                        throw Self.noise("a frame of unknown kind \(header[0])")
                    }
                    kind = k
                    remaining = Int(UInt32(header[1]) | UInt32(header[2]) << 8 | UInt32(header[3]) << 16 | UInt32(header[4]) << 24)
                    if kind != .bytes && remaining > RasterHelperStream.largestMessage {
                        throw Self.noise("a message of \(remaining) bytes announced")
                    }
                    if remaining > 0 { continue }
                }
                let taken = min(remaining, rest.count)
                let piece = UnsafeRawBufferPointer(rebasing: rest.prefix(taken))
                rest = rest.dropFirst(taken)
                remaining -= taken
                if kind == .bytes { try bytes(piece) } else { message += piece }
                guard remaining == 0 else { continue }
                header.removeAll()
                switch kind {
                case .bytes: break
                case .sheet:
                    guard message.count == 4 else { throw Self.noise("a sheet frame of \(message.count) bytes") }
                    try sheet(Int(UInt32(message[0]) | UInt32(message[1]) << 8 | UInt32(message[2]) << 16 | UInt32(message[3]) << 24))
                    sheetEnded = true
                case .reply:
                    reply = Data(message)
                }
                message.removeAll()
            }
            return sheetEnded
        }

        /// What the helper wrote was not frames (a damaged install, another program under its name).
        private static func noise(_ what: String) -> PrintError {
            PrintError(.renderingFailed, "\(RasterHelperProcess.name) answered something that is not a raster stream (\(what))")
        }
    }
}
