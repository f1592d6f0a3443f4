import CaptureMode
import Domain
import Foundation

/// One thing presented over a presenter's tabs, as a watcher is sent it: whatever
/// the presenter sees over the tab — a sheet, capture with all it shows (its questions, its list
/// of keys, "Saving…", a batch's lines, its messages), an alert, the photo viewer — a watcher
/// sees, because ``PresentedScreen`` carries the presenter's ``Presentation`` layer by layer,
/// bottom first, not a chosen few of its questions.
public enum PresentedLayer: Codable, Equatable, Sendable {
    case help(scrollOffset: Int)
    case search(PresentedSearch)
    case capture(PresentedCapture)
    case alert(Alert)
    case viewer(PresentedViewer)

    /// The layers of `presentation`, bottom first; `layout` is the presenter's (search results
    /// are cut to those its sheet shows).
    static func layers(of presentation: Presentation, layout: Layout) -> [PresentedLayer] {
        switch presentation {
        case .none: []
        case let .sheet(.help(help)): [.help(scrollOffset: help.scrollOffset)]
        case let .sheet(.search(search)): [.search(PresentedSearch(search, layout: layout))]
        case let .fullScreenCapture(capture): [.capture(PresentedCapture(capture))]
        case let .alert(alert, over): layers(of: over, layout: layout) + [.alert(alert)]
        case let .viewer(viewer, over): layers(of: over, layout: layout) + [.viewer(PresentedViewer(viewer))]
        }
    }

    /// The presentation these layers make, each over the one before.
    static func presentation(of layers: [PresentedLayer], config: CaptureConfig) -> Presentation {
        layers.reduce(Presentation.none) { under, layer in
            switch layer {
            case let .help(scrollOffset): .sheet(.help(HelpState(scrollOffset: max(0, scrollOffset))))
            case let .search(search): .sheet(.search(search.state))
            case let .capture(capture): .fullScreenCapture(capture.state(config: config))
            case let .alert(alert): .alert(alert, over: under)
            case let .viewer(viewer): viewer.state.map { .viewer($0, over: under) } ?? under
            }
        }
    }

    /// Every count and text cut to its bound.
    func bounded(_ cut: (String) -> String) -> PresentedLayer {
        switch self {
        case let .help(scrollOffset): .help(scrollOffset: min(max(0, scrollOffset), 100_000))
        case let .search(search): .search(search.bounded(cut))
        case let .capture(capture): .capture(capture.bounded(cut))
        case let .alert(alert):
            .alert(
                Alert(
                    title: cut(alert.title), message: cut(alert.message),
                    buttons: Array(alert.buttons.prefix(4)).map { AlertButton(cut($0.title), key: $0.key, action: $0.action) },
                    defaultButton: alert.defaultButton))
        case let .viewer(viewer): .viewer(viewer.bounded(cut))
        }
    }
}

// MARK: - Search

/// The search sheet as a watcher is sent it: the query, and only the results the presenter's
/// sheet shows, with where they sit among all the results.
public struct PresentedSearch: Codable, Equatable, Sendable {
    public var query: SessionSnapshot.Field
    public var results: [HistoryRow]
    public var part: ListPart
    /// The cursor and scroll, counted within `results`.
    public var cursor: Int
    public var scrollOffset: Int
    public var resultsQuery: String?
    public var isQuerySelected: Bool
    public var resultsHaveFocus: Bool

    init(_ search: SearchState, layout: Layout) {
        let shown = PresentedScreen.shownRange(
            count: search.results.count, cursor: search.list.cursor, scrollOffset: search.list.scrollOffset, rows: layout.searchResultRows)
        query = SessionSnapshot.Field(search.query)
        results = Array(search.results[shown])
        part = ListPart(offset: shown.lowerBound, total: search.results.count)
        cursor = search.list.cursor - shown.lowerBound
        scrollOffset = max(0, search.list.scrollOffset - shown.lowerBound)
        resultsQuery = search.resultsQuery
        isQuerySelected = search.isQuerySelected
        resultsHaveFocus = search.resultsHaveFocus
    }

    var state: SearchState {
        var search = SearchState(query: query.text)
        search.query = query.restored(into: search.query)
        search.results = results
        search.part = part
        search.list = ListPosition(cursor: cursor, scrollOffset: scrollOffset)
        search.list.clamp(count: results.count, viewport: max(1, results.count))
        search.resultsQuery = resultsQuery
        search.isQuerySelected = isQuerySelected
        search.resultsHaveFocus = resultsHaveFocus
        return search
    }

    func bounded(_ cut: (String) -> String) -> PresentedSearch {
        var copy = self
        copy.query.text = String(query.text.prefix(SearchState.queryLimit))
        copy.query.cursor = max(0, query.cursor)
        copy.results = results.prefix(PresentedScreen.maximumRows).map { PresentedScreen.cut($0, cut) }
        copy.part = PresentedScreen.sane(part, held: copy.results.count)
        copy.resultsQuery = resultsQuery.map(cut)
        return copy
    }
}

// MARK: - Capture

/// Capture as a watcher is sent it: what its screen draws, questions and messages included.
public struct PresentedCapture: Codable, Equatable, Sendable {
    /// The kind, phase, fields, code and staged photos (what a dropped session resumes).
    public var snapshot: SessionSnapshot.CaptureSnapshot
    /// What shows over the phase: the question before discarding, "Saving…", the list of keys.
    public var overlay: Overlay
    public var batchLines: [BatchLine]
    public var batchMessage: String?
    public var batchScrollOffset: Int
    public var reviewScrollOffset: Int
    public var codeSource: CodeSource?
    /// The code typed was refused: the watcher reads it again for the same sentence (a
    /// refusal's value holds the scanner's parse, which is not sent).
    public var refusesCode: Bool
    public var layoutHint: String?
    public var scanToast: Barcode?
    public var lookedUpCode: Barcode?
    public var lookedUpProduct: Product?
    public var photoCodes: [String: [Barcode]]
    public var photoMessage: String?
    public var photoMessageIsProblem: Bool
    public var copy: PhotoCopy?
    public var notice: String?
    public var photosFromUploads: Bool

    public enum Overlay: Codable, Equatable, Sendable {
        case none, keys(scrollOffset: Int), confirmingClose, committing
    }

    init(_ capture: CaptureState) {
        snapshot = SessionSnapshot.CaptureSnapshot(capture, stagingID: nil)
        overlay =
            switch capture.overlay {
            case .none: capture.isCommitting ? .committing : .none
            case let .keys(scrollOffset): .keys(scrollOffset: scrollOffset)
            case .confirmingClose: .confirmingClose
            }
        batchLines = capture.batch.lines
        batchMessage = capture.batchMessage
        batchScrollOffset = capture.batchScrollOffset
        reviewScrollOffset = capture.reviewScrollOffset
        codeSource = capture.codeSource
        refusesCode = capture.barcodeError != nil
        layoutHint = capture.layoutHint
        scanToast = capture.scanToast
        lookedUpCode = capture.productLookup?.barcode
        lookedUpProduct = capture.productLookup?.product
        photoCodes = capture.photoCodes
        photoMessage = capture.photoMessage?.text
        photoMessageIsProblem = capture.photoMessage?.kind == .problem
        copy = capture.copy
        notice = capture.notice
        photosFromUploads = capture.config.photosFromUploads
    }

    /// The capture as the presenter has it, with `config` from the presenter's settings.
    func state(config: CaptureConfig) -> CaptureState {
        var config = config
        config.photosFromUploads = photosFromUploads
        var capture = snapshot.captureState(config: config, photos: snapshot.photos)
        capture.overlay =
            switch overlay {
            case .none, .committing: .none
            case let .keys(scrollOffset): .keys(scrollOffset: max(0, scrollOffset))
            case .confirmingClose: .confirmingClose
            }
        if overlay == .committing { capture.saving = PendingSave(token: 0) }
        capture.batch = BatchLines(lines: batchLines)
        capture.batchMessage = batchMessage
        capture.batchScrollOffset = max(0, batchScrollOffset)
        capture.reviewScrollOffset = max(0, reviewScrollOffset)
        capture.codeSource = codeSource
        if refusesCode, case let .failure(error) = BarcodeValidator.read(capture.barcodeInput.text, options: config.scanOptions).barcode {
            capture.barcodeError = error
        }
        capture.layoutHint = layoutHint
        capture.scanToast = scanToast
        capture.productLookup = lookedUpCode.map { ProductLookup(barcode: $0, product: lookedUpProduct) }
        capture.photoCodes = photoCodes
        capture.photoMessage = photoMessage.map { PhotoMessage($0, kind: photoMessageIsProblem ? .problem : .information) }
        capture.copy = copy.map { PhotoCopy(name: $0.name, copiedBytes: max(0, $0.copiedBytes), totalBytes: max(0, $0.totalBytes)) }
        capture.notice = notice
        return capture
    }

    func bounded(_ cut: (String) -> String) -> PresentedCapture {
        var copy = self
        copy.snapshot.barcodeInput.text = cut(snapshot.barcodeInput.text)
        copy.snapshot.note.text = cut(snapshot.note.text)
        copy.snapshot.photoPath.text = cut(snapshot.photoPath.text)
        copy.snapshot.photos = Array(snapshot.photos.prefix(32))
        copy.snapshot.request = snapshot.request.map { CaptureRequestLink(id: $0.id, title: cut($0.title), kind: $0.kind) }
        copy.batchLines = Array(batchLines.prefix(PresentedScreen.maximumRows))
        copy.batchMessage = batchMessage.map(cut)
        copy.batchScrollOffset = min(max(0, batchScrollOffset), PresentedScreen.maximumRows)
        copy.reviewScrollOffset = min(max(0, reviewScrollOffset), 100_000)
        copy.layoutHint = layoutHint.map(cut)
        copy.photoCodes = Dictionary(uniqueKeysWithValues: photoCodes.prefix(32).map { ($0.key, Array($0.value.prefix(16))) })
        copy.photoMessage = photoMessage.map(cut)
        copy.copy = self.copy.map { PhotoCopy(name: cut($0.name), copiedBytes: $0.copiedBytes, totalBytes: $0.totalBytes) }
        copy.notice = notice.map(cut)
        return copy
    }
}

// MARK: - Photo viewer

/// The photo viewer as a watcher is sent it: each photo's facts, never its file.
public struct PresentedViewer: Codable, Equatable, Sendable {
    public struct Photo: Codable, Equatable, Sendable {
        public var name: String
        public var format: ImageFormat
        public var pixelWidth: Int
        public var pixelHeight: Int
        public var byteSize: Int64
    }

    public var photos: [Photo]
    public var index: Int
    public var recordID: Int64?

    init(_ viewer: PhotoViewerState) {
        photos = viewer.photos.map {
            Photo(name: $0.name, format: $0.format, pixelWidth: $0.pixelWidth, pixelHeight: $0.pixelHeight, byteSize: $0.byteSize)
        }
        index = viewer.index
        recordID = viewer.recordID
    }

    /// The viewer with no file behind any photo: a watcher draws the facts.
    var state: PhotoViewerState? {
        let photos = photos.map {
            ViewerPhoto(
                source: .stored(storedName: ""), name: $0.name, format: $0.format, pixelWidth: $0.pixelWidth, pixelHeight: $0.pixelHeight,
                byteSize: $0.byteSize)
        }
        return PhotoViewerState(photos: photos, index: index, recordID: recordID)
    }

    func bounded(_ cut: (String) -> String) -> PresentedViewer {
        var copy = self
        copy.photos = photos.prefix(32).map {
            var photo = $0
            photo.name = cut(photo.name)
            return photo
        }
        return copy
    }
}
