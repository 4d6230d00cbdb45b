import CQPDF

/// A stream's bytes read only when the document holding it is written (as often as the writer
/// asks), so that the document never holds them: a job of many photos holds one at a time.
package final class StreamSupplier {
    /// Gives every byte, a piece at a time, to `write`; stops early when `write` returns false
    /// (the writer failed, and says why itself). Throws when the bytes cannot be given.
    package typealias Supply = (_ write: (UnsafeRawBufferPointer) -> Bool) throws -> Void
    private let supply: Supply
    /// Why it last could not give its bytes.
    package private(set) var failure: Error?

    package init(_ supply: @escaping Supply) { self.supply = supply }

    /// The engine's entry: `context` is an unretained supplier.
    static let provide: spq_provide_fn = { context, write, writeContext in
        let supplier = Unmanaged<StreamSupplier>.fromOpaque(context!).takeUnretainedValue()
        do {
            try supplier.supply { bytes in
                bytes.isEmpty || write!(writeContext, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count) == 0
            }
            return 0
        } catch {
            supplier.failure = error
            return 1
        }
    }
}
