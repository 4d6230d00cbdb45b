import Foundation
import Synchronization

/// Blocking work (a request to CUPS that waits on the network, a conversion that takes seconds)
/// made awaitable: it runs on a thread of its own, so the awaiting task's executor, and Swift's
/// few cooperative threads, go on with other work meanwhile. The call itself stays on the
/// caller's executor (`nonisolated(nonsending)`): awaiting it from the main actor needs no
/// cooperative thread, which may all be busy with blocking work of the app's own.
///
/// The work is not interrupted when the awaiting task is cancelled (libcups and the converters
/// have no cancellation); work that can stop early asks the `isCancelled` it is given.
package enum BlockingCall {
    package nonisolated(nonsending) static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await run { _ in try work() }
    }

    /// `work` is given whether the awaiting task has been cancelled so far (a thread of its own
    /// is outside the task, where `Task.isCancelled` is always false).
    package nonisolated(nonsending) static func run<T: Sendable>(_ work: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> T) async throws -> T {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread { continuation.resume(with: Result { try work { cancelled.isSet } }) }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    private final class CancellationFlag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }
}

/// Work started on a thread of its own now and collected later (`value()` waits for it): a
/// synchronous caller overlaps it with a wait of its own, such as another process's answer.
package final class BackgroundWork<T: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<T, any Error>?>(nil)

    package init(_ work: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// The work's result, once it has finished; the same on every call.
    package func value() throws -> T {
        if let ready = result.withLock({ $0 }) { return try ready.get() }
        done.wait()
        done.signal()  // for another caller waiting at once
        return try result.withLock { $0! }.get()
    }
}
