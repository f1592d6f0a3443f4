import CaptureMode
import Foundation

/// Storage's answers under the names Sources/Runtime's effect runner spells them, each composed
/// into its feature's case. Only constructors: the router and the features match the nested
/// cases. (Kept while the runtime is reworked elsewhere; spell the nested cases in new code.)
extension AppAction {
    public static func inboxLoaded(_ snapshot: InboxSnapshot) -> AppAction { .inbox(.loaded(snapshot)) }
    public static func historyLoaded(_ page: HistoryPage) -> AppAction { .history(.pageLoaded(page)) }
    public static func recordDetailLoaded(id: Int64, detail: RecordDetail?) -> AppAction {
        .history(.detailLoaded(id: id, detail: detail))
    }
    public static func recordDeleted(_ id: Int64) -> AppAction { .history(.recordDeleted(id)) }
    public static func allRecordsDeleted(count: Int) -> AppAction { .history(.allRecordsDeleted(count: count)) }
    public static func searchResultsLoaded(query: String, rows: [HistoryRow]) -> AppAction {
        .search(.resultsLoaded(query: query, rows: rows))
    }
    public static func captureCommitFailed(_ message: String) -> AppAction { .capture(.commitFailed(message)) }
    public static func draftResumed(_ id: String) -> AppAction { .drafts(.resumed(id)) }
    public static func draftDropped(_ id: String) -> AppAction { .drafts(.dropped(id)) }
}
