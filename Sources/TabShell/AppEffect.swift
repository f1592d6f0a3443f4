import CaptureMode
import Domain
import Foundation

/// Work the shell asks the effect runner to do; results come back as actions.
public indirect enum AppEffect: Equatable, Sendable {
    /// Read the Inbox's first `limit` requests (a page, more as the cursor nears the end).
    case loadInbox(limit: Int)
    /// Read a page of History in `request.mode`'s order; answer with `.history(.pageLoaded)`.
    case loadHistory(HistoryPageRequest)
    case commitCapture(CaptureSubmission)
    /// Look an accepted code up in the product catalog; answer with `.capture(.productLookedUp)`.
    case lookUpProduct(Barcode)
    case saveSettings(Settings)
    /// Keep what the capture on screen has collected (`draft.json` in its staging folder), so a
    /// crash or a dropped link can offer it back.
    case saveDraft(CaptureDraft)
    /// After `milliseconds`, send `action` (auto-advance after a scan, the end of a highlight).
    case schedule(afterMilliseconds: Int, action: AppAction)
    /// Copy a photo into this capture's staging directory (created on first use); report
    /// progress and the result as capture actions.
    /// `draft` is what the capture is (kind, request, phase): the staging folder records it
    /// before the first byte is copied, so a kill at any moment leaves a draft that knows it.
    case stagePhoto(path: String, draft: CaptureDraft?)
    case unstagePhoto(StagedPhoto)
    /// Complete a typed path from its directory's listing; answer with `.pathCompleted`.
    case completePath(String)
    /// Capture closed without Done: cancel any copy and delete the staging directory.
    case discardStaging
    /// Take over the staging folder of a draft (then `.drafts(.resumed)`).
    case resumeDraft(String)
    /// Delete a draft's staging folder (then `.drafts(.dropped)`).
    case discardDraft(String)
    /// Read a record and its photos for its detail; answer with `.history(.detailLoaded)`.
    case loadRecordDetail(Int64)
    /// Delete a record, its photo rows and then its files; answer with `.history(.recordDeleted)`.
    case deleteRecord(Int64)
    /// Delete every record and photo, then the files; answer with `.history(.allRecordsDeleted(count:))`.
    case deleteAllRecords
    /// Make a done request pending again; answer with `.inbox(.requestChanged)`.
    case reopenRequest(Int64)
    /// Delete a request (its answers stay, answering nothing); answer with `.inbox(.requestChanged)`.
    case removeRequest(Int64)
    /// Find records whose code, note or request title matches `query`, newest first, at most
    /// `limit`; answer with `.search(.resultsLoaded(query:rows:))` carrying the same `query`.
    case search(query: String, limit: Int)
    /// Make a preview of a photo off the main loop; answer with `.previewLoaded(request, ticket, …)`.
    case loadPreview(PreviewRequest, ticket: Int)
    /// The preview asked for with `ticket` is no longer wanted: stop it if it has not started.
    case cancelPreview(ticket: Int)
    /// Paint every cell of the screen again.
    case redraw
    /// Put this text on the terminal's clipboard (OSC 52; the front end writes it).
    case copyToClipboard(String)
    /// Read a record and encode it as the export's JSON line (`history export --format
    /// jsonl`); answer with `.history(.exportLineLoaded(id:line:))`.
    case loadExportLine(Int64)
    case quit
}
