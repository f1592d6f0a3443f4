import CaptureMode
import Domain
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

// MARK: - State

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

    /// The query is selected, as in a command palette: the sheet reopened with the last query,
    /// and the first thing typed replaces it (a move of the text cursor keeps it).
    public var isQuerySelected = false

    /// The arrows (or a click) moved into the results since the query was last typed: the
    /// results have focus, which screen-reader mode shows with the cursor (the query has it
    /// otherwise, as a combo box's field does).
    public var resultsHaveFocus = false

    /// Set when `results` are only some of the results (a watcher's sheet holds the rows the
    /// presenter's screen shows): where they sit among them. `list` counts within `results`.
    public var part: ListPart?

    /// How many records matched, those not held included.
    public var resultCount: Int { part?.total ?? results.count }

    public init(query: String = "") {
        self.query = TextBuffer(query, multiline: false, limit: Self.queryLimit)
        self.isQuerySelected = !query.isEmpty
    }

    /// The query as it is searched for: surrounding spaces do not count.
    public var trimmedQuery: String { query.text.trimmingCharacters(in: .whitespaces) }

    /// True while storage has not answered the query as typed.
    public var isSearching: Bool { !trimmedQuery.isEmpty && resultsQuery != trimmedQuery }

    public var highlightedResult: HistoryRow? {
        results.indices.contains(list.cursor) ? results[list.cursor] : nil
    }

    /// Applies a key's edit to the query.
    public mutating func apply(_ edit: TextEdit) {
        if isQuerySelected {
            isQuerySelected = false
            switch edit {
            case .typed, .pasted: query.clear()
            case .backspace, .deleteForward, .deleteToLineStart:
                query.clear()
                return
            case .moved: break
            }
        }
        switch edit {
        case let .typed(text), let .pasted(text): query.insert(text)
        case .backspace: query.backspace()
        case .deleteForward: query.deleteForward()
        case .deleteToLineStart: query.deleteToLineStart()
        case let .moved(motion): query.move(motion)
        }
    }
}

// MARK: - Actions

/// What happens in the search sheet.
public enum SearchAction: Equatable, Sendable {
    case input(FocusInput)
    /// The sheet opened with this query (the one it held when it last closed).
    case opened
    case edited(TextEdit)
    /// Storage's answer: `rows` match `query`.
    case resultsLoaded(query: String, rows: [HistoryRow])
    /// Another process changed the records: run the shown query again.
    case changedElsewhere
    /// A read failed: stop waiting for an answer that is not coming.
    case loadFailed

    /// Sent by a key (not storage's answer or the shell's bookkeeping).
    public var isUserInput: Bool {
        switch self {
        case .input, .edited: true
        case .opened, .resultsLoaded, .changedElsewhere, .loadFailed: false
        }
    }
}

// MARK: - Reducer

extension SearchState {
    /// The search reducer; `viewport` is the number of result rows on screen.
    public mutating func send(_ action: SearchAction, viewport: Int) -> Outcome {
        switch action {
        case let .input(.moved(move)):
            list.move(move, count: results.count, viewport: viewport)
            resultsHaveFocus = !results.isEmpty
            return .none

        case .input(.activated):
            guard let row = highlightedResult else { return .none }
            return .request(.openRecord(row))

        case let .input(.clicked(row)):
            guard results.indices.contains(row) else { return .none }
            resultsHaveFocus = true
            if list.cursor == row { return send(.input(.activated), viewport: viewport) }
            list.cursor = row
            list.clamp(count: results.count, viewport: viewport)
            return .none

        case .input(.escape):
            return .request(.closeSheet)

        case .opened:
            resultsHaveFocus = false
            return .effects(searchIfChanged(from: ""))

        case let .edited(edit):
            resultsHaveFocus = false
            let previous = trimmedQuery
            apply(edit)
            return .effects(searchIfChanged(from: previous))

        case let .resultsLoaded(query, rows):
            guard query == trimmedQuery else { return .none }
            if query == resultsQuery {
                // The same query read again: the cursor stays on its record.
                let preference = ListPosition.preference(around: list.cursor, in: results.map(\.id))
                results = rows
                list.follow(preference, in: rows.map(\.id), count: rows.count, viewport: viewport)
            } else {
                results = rows
                resultsQuery = query
                list = ListPosition()
            }
            return .none

        case .changedElsewhere:
            guard let shown = resultsQuery, shown == trimmedQuery, !shown.isEmpty else { return .none }
            return .effects([.search(query: shown, limit: Self.resultLimit)])

        case .loadFailed:
            // The status line says why; the sheet stops showing "Searching".
            if isSearching { resultsQuery = trimmedQuery }
            return .none
        }
    }

    /// Asks storage for the query's matches when it differs from `previousQuery`; an empty query
    /// has no results and asks nothing.
    private mutating func searchIfChanged(from previousQuery: String) -> [AppEffect] {
        let query = trimmedQuery
        guard query != previousQuery else { return [] }
        guard !query.isEmpty else {
            results = []
            resultsQuery = nil
            list = ListPosition()
            resultsHaveFocus = false
            return []
        }
        return [.search(query: query, limit: Self.resultLimit)]
    }
}
