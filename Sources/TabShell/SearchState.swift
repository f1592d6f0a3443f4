import CaptureMode
import Foundation

/// An edit of a one-line text field, as keys produce it.
public enum TextEdit: Equatable, Sendable {
    case typed(String)
    case pasted(String)
    case backspace
    case deleteForward
    /// Ctrl-U: delete from the start of the query to the cursor.
    case deleteToLineStart
    case moved(TextBuffer.Motion)
}

/// The search sheet: the query being typed, the records that match it (newest first) and the
/// highlighted result. Every change of the query asks storage again; answers for a query that
/// is no longer the one typed are dropped.
public struct SearchState: Equatable, Sendable {
    /// The most results one search shows.
    public static let resultLimit = 50
    /// The longest query, in characters.
    public static let queryLimit = 200

    public var query: TextBuffer
    public var results: [HistoryRow] = []
    public var list = ListPosition()
    /// The (trimmed) query `results` answer; nil before the first answer or when the query is empty.
    public var resultsQuery: String?

    public init(query: String = "") {
        self.query = TextBuffer(query, multiline: false, limit: Self.queryLimit)
    }

    /// The query as it is searched for: surrounding spaces do not count.
    public var trimmedQuery: String { query.text.trimmingCharacters(in: .whitespaces) }

    /// True while storage has not answered the query as typed.
    public var isSearching: Bool { !trimmedQuery.isEmpty && resultsQuery != trimmedQuery }

    public var highlightedResult: HistoryRow? {
        results.indices.contains(list.cursor) ? results[list.cursor] : nil
    }

    /// Applies a key's edit to the query.
    mutating func apply(_ edit: TextEdit) {
        switch edit {
        case let .typed(text), let .pasted(text): query.insert(text)
        case .backspace: query.backspace()
        case .deleteForward: query.deleteForward()
        case .deleteToLineStart: query.deleteToLineStart()
        case let .moved(motion): query.move(motion)
        }
    }
}
