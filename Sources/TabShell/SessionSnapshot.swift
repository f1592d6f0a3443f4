import CaptureMode
import Domain
import Foundation

/// What a person had on screen when their connection dropped, as a plain Codable value: the
/// tab, every tab's cursor, History's browse mode and navigation stack, an open sheet, and a
/// capture in progress (its staged photos stay in their staging folder, named by `stagingID`).
/// `tabshell serve` sessions save it on hang-up and restore it when the person comes back
/// within the resume window. An open alert comes back too, over what it was shown over.
public struct SessionSnapshot: Codable, Equatable, Sendable {
    /// Bumped when a field changes meaning; a snapshot of another version is not restored.
    public static let currentVersion = 2

    public var version = Self.currentVersion
    public var savedAt: Date
    public var selectedTab: Tab
    public var inbox: ListState
    public var chosenRequestID: Int64?
    public var history: ListState
    public var historyBrowseMode: String
    public var historyStack: [Route]
    public var settingsList: ListState
    public var sheet: SheetState?
    public var capture: CaptureSnapshot?
    /// The alert that was open (a question half answered is asked again).
    public var alert: Alert?
    public var lastSearchQuery: String

    /// A list's cursor and scroll, and the item under the cursor (to follow it if rows moved).
    public struct ListState: Codable, Equatable, Sendable {
        public var cursor: Int
        public var scrollOffset: Int
        public var itemID: Int64?
    }

    /// A record's detail on History's stack: the row as History listed it, shown until storage
    /// answers again.
    public struct Route: Codable, Equatable, Sendable {
        public var record: HistoryRow
        public var scrollOffset: Int
    }

    public enum SheetState: Codable, Equatable, Sendable {
        case help(scrollOffset: Int)
        case search(query: String, queryCursor: Int, resultCursor: Int, resultScroll: Int)
    }

    /// A text field: its text and where its cursor was.
    public struct Field: Codable, Equatable, Sendable {
        public var text: String
        public var cursor: Int
    }

    /// A capture in progress.
    public struct CaptureSnapshot: Codable, Equatable, Sendable {
        public var request: CaptureRequestLink?
        public var kind: CaptureKind?
        public var phase: String
        public var pickerCursor: Int
        public var barcodeInput: Field
        public var barcode: Barcode?
        public var note: Field
        public var photoPath: Field
        public var photos: [StagedPhoto]
        public var photoCursor: Int
        public var isShowingKeys: Bool
        /// The staging folder holding the photos and `draft.json`, if the capture has one.
        public var stagingID: String?
    }
}

// MARK: - Taking a snapshot

extension AppState {
    /// The navigation state as a snapshot; `stagingID` names the open capture's staging folder.
    public func sessionSnapshot(savedAt: Date, stagingID: String?) -> SessionSnapshot {
        func list(_ position: ListPosition, itemID: Int64?) -> SessionSnapshot.ListState {
            SessionSnapshot.ListState(cursor: position.cursor, scrollOffset: position.scrollOffset, itemID: itemID)
        }
        var sheet: SessionSnapshot.SheetState?
        switch presentation.sheet {
        case let .help(help)?:
            sheet = .help(scrollOffset: help.scrollOffset)
        case let .search(search)?:
            sheet = .search(
                query: search.query.text, queryCursor: search.query.cursor,
                resultCursor: search.list.cursor, resultScroll: search.list.scrollOffset)
        case nil:
            sheet = nil
        }
        return SessionSnapshot(
            savedAt: savedAt,
            selectedTab: selectedTab.tab,
            inbox: list(inbox.list, itemID: inbox.highlightedRequestID),
            chosenRequestID: inbox.chosenRequestID,
            history: list(history.list, itemID: history.row(at: history.list.cursor)?.id),
            historyBrowseMode: history.browseMode.rawValue,
            historyStack: history.stack.map { SessionSnapshot.Route(record: $0.record, scrollOffset: $0.scrollOffset) },
            settingsList: list(settingsScreen.list, itemID: nil),
            sheet: sheet,
            capture: presentation.capture.map { SessionSnapshot.CaptureSnapshot($0, stagingID: stagingID) },
            alert: presentation.alert,
            lastSearchQuery: presentation.search?.query.text ?? lastSearch.query
        )
    }
}

extension SessionSnapshot.Field {
    init(_ buffer: TextBuffer) {
        self.init(text: buffer.text, cursor: buffer.cursor)
    }

    /// `buffer` holding this text with the cursor where it was.
    func restored(into buffer: TextBuffer) -> TextBuffer {
        var restored = TextBuffer(text, multiline: buffer.isMultiline, limit: buffer.limit)
        let steps = max(0, restored.characters.count - max(0, cursor))
        for _ in 0..<steps { restored.move(.left) }
        return restored
    }
}

extension SessionSnapshot.CaptureSnapshot {
    init(_ capture: CaptureState, stagingID: String?) {
        self.init(
            request: capture.request, kind: capture.kind, phase: capture.phase.rawValue,
            pickerCursor: capture.pickerCursor, barcodeInput: .init(capture.barcodeInput), barcode: capture.barcode,
            note: .init(capture.note), photoPath: .init(capture.photoPath), photos: capture.photos,
            photoCursor: capture.photoCursor, isShowingKeys: capture.isShowingKeys, stagingID: stagingID)
    }

    /// The capture as it was, with `photos` (those its staging folder still holds) and today's
    /// settings. Nothing was being copied or committed: a copy cut short is simply not there.
    public func captureState(config: CaptureConfig, photos: [StagedPhoto]) -> CaptureState {
        var capture = CaptureState(config: config, request: request)
        if let kind {
            capture = CaptureState(
                config: config, request: request, kind: kind, phase: CapturePhase(rawValue: phase) ?? .picker,
                barcode: barcode, note: nil, photos: photos)
            capture.phase = CapturePhase(rawValue: phase) ?? capture.phase
        }
        capture.pickerCursor = pickerCursor
        capture.barcodeInput = barcodeInput.restored(into: capture.barcodeInput)
        capture.note = note.restored(into: capture.note)
        capture.photoPath = photoPath.restored(into: capture.photoPath)
        capture.photoCursor = photos.isEmpty ? 0 : min(max(0, photoCursor), photos.count - 1)
        if isShowingKeys { capture.overlay = .keys(scrollOffset: 0) }
        return capture
    }
}

// MARK: - Restoring

extension AppState {
    /// Puts the snapshot's navigation back (the data itself is read again: the effects returned
    /// load the Inbox, History's rows around the cursor, each detail on the stack and a search's
    /// results). `photos` are the staged photos found in the capture's staging folder.
    mutating func restore(_ snapshot: SessionSnapshot, photos: [StagedPhoto], message: String?) -> [AppEffect] {
        selectedTab = snapshot.selectedTab.content ?? .inbox
        inbox.list = ListPosition(cursor: snapshot.inbox.cursor, scrollOffset: snapshot.inbox.scrollOffset)
        inbox.chosenRequestID = snapshot.chosenRequestID
        history.browseMode = HistoryBrowseMode(rawValue: snapshot.historyBrowseMode) ?? .all
        history.reset(totalCount: history.totalCount)
        history.list = ListPosition(cursor: snapshot.history.cursor, scrollOffset: snapshot.history.scrollOffset)
        history.following = snapshot.history.itemID.map { [$0] }
        history.stack = snapshot.historyStack.map { HistoryDetailState(record: $0.record, scrollOffset: $0.scrollOffset) }
        settingsScreen.list = ListPosition(cursor: snapshot.settingsList.cursor, scrollOffset: snapshot.settingsList.scrollOffset)
        lastSearch.query = snapshot.lastSearchQuery
        clampLists()

        var effects: [AppEffect] = history.stack.map { .loadRecordDetail($0.record.id) }
        presentation = .none
        if let capture = snapshot.capture {
            presentation = .fullScreenCapture(capture.captureState(config: captureConfig, photos: photos))
            // What the staging folder holds is already saved; the next change saves again.
            savedDraft = presentation.capture?.draft
        } else {
            switch snapshot.sheet {
            case let .help(scrollOffset)?:
                presentation = .sheet(.help(HelpState(scrollOffset: scrollOffset)))
            case let .search(query, queryCursor, resultCursor, resultScroll)?:
                var search = SearchState(query: query)
                search.query = SessionSnapshot.Field(text: query, cursor: queryCursor).restored(into: search.query)
                search.isQuerySelected = false
                search.list = ListPosition(cursor: resultCursor, scrollOffset: resultScroll)
                // The answer is then "the same query read again", which keeps the cursor.
                search.resultsQuery = search.trimmedQuery.isEmpty ? nil : search.trimmedQuery
                presentation = .sheet(.search(search))
                if !search.trimmedQuery.isEmpty {
                    effects.append(.search(query: search.trimmedQuery, limit: SearchState.resultLimit))
                }
            case nil:
                break
            }
        }
        if let alert = snapshot.alert {
            presentation = .alert(alert, over: presentation)
        }
        status = message.map { StatusMessage($0, kind: .success) }
        return effects
    }
}
