import Foundation
import HandlerSupport

/// Splits UTF-8 text into the lines a printer shows.
///
/// - LF, CRLF and a bare CR each end a line.
/// - A form feed ends the line (if it has text) and starts a new page.
/// - Tabs become spaces up to the next multiple of `tabWidth` columns. On a character grid
///   (`countsCells`) a column is a cell, and wide characters take two (see `GridCells`);
///   otherwise every character is one column.
/// - Other C0 control characters and DEL print as their Unicode control pictures (␀ ␁ … ␡);
///   C1 controls print as U+FFFD. Nothing is dropped silently, nothing crashes.
/// - A line longer than `maximumLineBytes` is handed on in segments (the later ones marked as
///   continuations), so that one enormous line never has to be laid out in one piece.
final class LineReader {
    enum Event: Equatable { case line, formFeed, end }

    /// The current line's UTF-8 bytes, valid after `next()` returned `.line`.
    private(set) var line: [UInt8] = []
    /// Whether the current line is printable ASCII only (0x20…0x7E).
    private(set) var lineIsASCII = true
    /// The current line's number in the input, from 1.
    private(set) var lineNumber = 0
    /// Whether the current line continues the previous one (a segment of an over-long line).
    private(set) var isContinuation = false

    let tabWidth: Int
    let countsCells: Bool
    let maximumLineBytes: Int
    private let source: UTF8ChunkSource
    private var chunk: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    private var position = 0
    private var afterCR = false
    private var pendingFormFeed = false
    private var atEnd = false
    private var nextIsContinuation = false

    var bytesRead: Int { source.bytesRead }

    init(source: UTF8ChunkSource, tabWidth: Int = 8, countsCells: Bool = false, maximumLineBytes: Int = 16_384) {
        self.source = source
        self.tabWidth = max(1, tabWidth)
        self.countsCells = countsCells
        self.maximumLineBytes = maximumLineBytes
        line.reserveCapacity(512)
    }

    /// The next line, form feed or end. The hot loop of a text job (every byte of the file
    /// passes through it), kept whole so that its state lives in locals for its length; the
    /// size rule's one exception.
    func next() throws -> Event {
        if pendingFormFeed { pendingFormFeed = false; return .formFeed }
        if atEnd { return .end }
        // The loop works on local copies of the reader's state, written back on return: every use
        // of a class's stored property is checked for exclusive access at run time, a local's not.
        var line: [UInt8] = []
        swap(&line, &self.line)
        line.removeAll(keepingCapacity: true)
        var chunk = self.chunk, position = self.position, afterCR = self.afterCR
        var isASCII = true, column = 0, lastWasC2 = false
        // Where the text after the last tab starts, and whether it has characters that may not
        // take one cell each: their cells are counted when the next tab needs them.
        var afterTab = 0, columnAfterTab = 0, uncountedSinceTab = false
        defer {
            swap(&line, &self.line)
            self.chunk = chunk; self.position = position; self.afterCR = afterCR
            lineIsASCII = isASCII
        }
        isContinuation = nextIsContinuation
        nextIsContinuation = false
        if !isContinuation { lineNumber += 1 }
        while true {
            if position == chunk.count {
                guard let c = try source.nextChunk() else {
                    atEnd = true
                    // A last line without a newline still prints; an empty tail does not.
                    if !line.isEmpty || isContinuation { return .line }
                    lineNumber -= 1
                    return .end
                }
                chunk = c; position = 0
            }
            let b = chunk[position]
            position += 1
            if afterCR {
                afterCR = false
                if b == 0x0A { continue }
            }
            switch b {
            case 0x0A:
                return .line
            case 0x0D:
                afterCR = true
                return .line
            case 0x0C:
                if line.isEmpty && !isContinuation {
                    lineNumber -= 1
                    return .formFeed
                }
                pendingFormFeed = true
                return .line
            case 0x09:
                if uncountedSinceTab {
                    column = columnAfterTab + line.withUnsafeBufferPointer { GridCells.of(utf8: UnsafeBufferPointer(rebasing: $0[afterTab...])) }
                    uncountedSinceTab = false
                }
                let spaces = tabWidth - column % tabWidth
                for _ in 0..<spaces { line.append(0x20) }
                column += spaces
                afterTab = line.count; columnAfterTab = column
            case 0x20...0x7E:
                // Printable ASCII comes in runs: copy the rest of the run at once, up to the
                // longest segment.
                let room = max(0, maximumLineBytes - line.count - 1)
                let limit = min(chunk.count, position + room)
                var end = position
                while end < limit, chunk[end] >= 0x20, chunk[end] <= 0x7E { end += 1 }
                line.append(b)
                line.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[position..<end]))
                column += 1 + end - position
                position = end
            case 0x00...0x1F:
                // U+2400 + b: the control picture for b.
                line.append(0xE2); line.append(0x90); line.append(0x80 + b)
                isASCII = false; column += 1
            case 0x7F:
                line.append(0xE2); line.append(0x90); line.append(0xA1)
                isASCII = false; column += 1
            default:
                isASCII = false
                if lastWasC2 && b >= 0x80 && b <= 0x9F {
                    // A C1 control (U+0080…U+009F): replace the C2 already written with U+FFFD.
                    line.removeLast()
                    line.append(0xEF); line.append(0xBF); line.append(0xBD)
                    lastWasC2 = false
                    continue
                }
                line.append(b)
                // On a grid its cells are counted when a tab needs them.
                if b & 0xC0 != 0x80 { column += 1 }
                uncountedSinceTab = countsCells
                lastWasC2 = b == 0xC2
                if line.count >= maximumLineBytes, position < chunk.count, chunk[position] & 0xC0 != 0x80, !lastWasC2 {
                    nextIsContinuation = true
                    return .line
                }
                continue
            }
            lastWasC2 = false
            if line.count >= maximumLineBytes {
                nextIsContinuation = true
                return .line
            }
        }
    }
}
