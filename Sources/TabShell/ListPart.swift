import Foundation

/// Where the rows a list holds sit in a longer list that is not held whole: a watcher's lists
/// hold only the rows the presenter's screen shows, and say here where those rows
/// are and how long the presenter's list is, so headings and marks count as the presenter's do.
public struct ListPart: Codable, Equatable, Sendable {
    /// Rows of the whole list before the first one held.
    public var offset: Int
    /// Rows in the whole list.
    public var total: Int
    /// Some row of the whole list names a person (the Inbox's From column shows).
    public var namesPeople = false

    /// Rows of the whole list after the last of `held` held rows.
    public func rowsAfter(held: Int) -> Int { max(0, total - offset - held) }
}
