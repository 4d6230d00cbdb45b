import Foundation
import PrintModel
import PrintSupport

/// A job's status as it changes, up to and including its final one (completed, cancelled or
/// aborted): "page 2 of 5" as `impressionsCompleted` grows, the printer's reasons and messages.
///
/// CUPS is asked every `interval` (IPP Get-Job-Attributes); a status is delivered when it
/// differs from the one before. Iterating ends after the final status. Cancelling the iterating
/// task ends the wait with `CancellationError`, and leaves the job as it is: cancelling the job
/// is `PrintCenter.cancel(job:)`.
public struct JobStatusUpdates: AsyncSequence, Sendable {
    public typealias Element = JobStatus
    public let jobID: Int
    public let interval: Duration

    public init(jobID: Int, pollingEvery interval: Duration = .milliseconds(250)) {
        self.jobID = jobID
        self.interval = interval
    }

    public func makeAsyncIterator() -> Iterator { Iterator(jobID: jobID, interval: interval) }

    public struct Iterator: AsyncIteratorProtocol {
        let jobID: Int
        let interval: Duration
        private var last: JobStatus?
        private var finished = false

        init(jobID: Int, interval: Duration) {
            self.jobID = jobID
            self.interval = interval
        }

        public mutating func next() async throws -> JobStatus? {
            guard !finished else { return nil }
            while true {
                try Task.checkCancellation()
                if last != nil { try await Task.sleep(for: interval) }
                let id = jobID
                let now = try await BlockingCall.run { try PrintCenter.status(ofJob: id) }
                if now.state.isFinal { finished = true }
                if now != last || finished {
                    last = now
                    return now
                }
            }
        }
    }
}
