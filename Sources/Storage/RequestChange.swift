import Domain

/// What `inbox reopen` and `inbox remove` (and the Inbox's keys) did to a request.
public enum RequestChange: Equatable, Sendable {
    /// There is no request with that id.
    case notFound(id: Int64)
    /// It was pending already: nothing changed.
    case alreadyPending(InboxRequest)
    /// It was done and is pending again (the records that answered it still name it).
    case reopened(InboxRequest)
    /// It is gone; the records that answered it stay, answering nothing now.
    case removed(InboxRequest, unlinkedRecords: Int)

    /// Whether it did what was asked (a request pending already was, too).
    public var succeeded: Bool {
        if case .notFound = self { return false }
        return true
    }

    /// The sentence a person reads; `title` is the request's title as the caller shows text.
    public func sentence(title: (String) -> String = { $0 }) -> String {
        switch self {
        case let .notFound(id):
            return "There is no request #\(id) (tabshell inbox list shows them)."
        case let .alreadyPending(request):
            return "Request #\(request.id) is pending already: \u{201C}\(title(request.title))\u{201D}."
        case let .reopened(request):
            return "Request #\(request.id) is pending again: \u{201C}\(title(request.title))\u{201D}."
        case let .removed(request, records):
            let removed = "Removed request #\(request.id): \u{201C}\(title(request.title))\u{201D}."
            switch records {
            case 0: return removed
            case 1: return removed + " The record that answered it stays in History, answering no request now."
            default: return removed + " The \(records) records that answered it stay in History, answering no request now."
            }
        }
    }
}
