/// How a CUPS backend ends: its exit status, which tells cupsd what to do with the job and the
/// queue (CUPS_BACKEND_* in cups/backend.h). An Error, so that a step that ends the job early
/// returns it as a `Result`'s failure.
public enum BackendStatus: Int32, Error, Sendable {
    /// The job was sent (or saved).
    case ok = 0
    /// It failed; the queue's printer-error-policy says what happens next.
    case failed = 1
    case authRequired = 2
    /// Held until released.
    case hold = 3
    /// The queue is stopped until an administrator starts it.
    case stop = 4
    case cancel = 5
    /// Sent again later (cupsd's JobRetryInterval), counted against JobRetryLimit.
    case retry = 6
    case retryCurrent = 7
}
