/// What deleting a record does to the request it answered, as the store says when it reads the
/// record: the delete question says it (storage reopens a done request only when no other record
/// answers it).
public enum RequestAfterDeletion: String, Codable, Equatable, Sendable, CaseIterable {
    /// Done, and this record is its only answer: it becomes pending again.
    case pendingAgain
    /// Done, and another record answers it too: it stays done.
    case answeredByAnother
    /// Pending already (reopened since it was answered): it stays pending.
    case pendingAlready
}
