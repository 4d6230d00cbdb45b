/// PNG's row filters, which PDF's Flate predictor 15 undoes (`ImageObjectInfo.pngPredictor`):
/// written before compression, they turn what repeats from row to row into runs of zeros.
package enum PNGRowFilter {
    /// PNG's "Up" filter (type 2): each byte less the byte above it, after the filter's type
    /// byte. Raster pages repeat their rows (white margins, lines of text, flat colour), and a
    /// photo's rows resemble the ones above: smaller and faster to compress than the rows
    /// themselves. `out` holds one byte more than `row`.
    package static func up(_ row: [UInt8], above: [UInt8], into out: inout [UInt8]) {
        out.withUnsafeMutableBufferPointer { o in
            row.withUnsafeBufferPointer { r in
                above.withUnsafeBufferPointer { a in
                    o[0] = 2
                    for i in 0..<r.count { o[i + 1] = r[i] &- a[i] }
                }
            }
        }
    }
}
