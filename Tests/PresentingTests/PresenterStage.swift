import CaptureMode
import Domain
import Foundation
import Render
import TabShell

/// A presenter's session without a terminal or a store: keys go through the key table into the
/// state, and what the state asks storage for is answered at once from fixed data (60 requests,
/// 120 records, some with photos, one a batch), so every screen a presenter can reach is
/// reachable here.
struct PresenterStage {
    static let now = Date(timeIntervalSince1970: 1_741_953_600)
    static let options = RenderOptions(unicode: true, color: false, now: now)

    static let requests = (1...60).map {
        InboxRequest(
            id: Int64($0), title: "Request number \($0) for bay \($0 % 7)", body: "Body \($0)", kind: .barcode, status: .pending,
            createdAt: now.addingTimeInterval(Double(-$0 * 600)), requester: $0 % 5 == 0 ? "Dana" : nil)
    }

    static let records = (1...120).map { index -> HistoryRow in
        let id = Int64(121 - index)
        if index % 3 == 0 {
            return HistoryRow(
                id: id, kind: .photos, barcode: nil, note: nil, requestID: nil, requestTitle: nil,
                createdAt: now.addingTimeInterval(Double(-index * 60)), photoCount: 2, firstPhotoName: "shelf \(index).png")
        }
        if index == 2 {
            return HistoryRow(
                id: id, kind: .batch, barcode: nil, note: nil, requestID: nil, requestTitle: nil,
                createdAt: now.addingTimeInterval(Double(-index * 60)), batchCodes: 2, batchScans: 3)
        }
        return HistoryRow(
            id: id, kind: .note, barcode: nil, note: "Record note \(index)", requestID: nil, requestTitle: nil,
            createdAt: now.addingTimeInterval(Double(-index * 60)))
    }

    static func detail(of id: Int64) -> RecordDetail? {
        guard let record = records.first(where: { $0.id == id }) else { return nil }
        let photos = (0..<record.photoCount).map {
            RecordPhoto(
                id: id * 10 + Int64($0), position: $0, originalName: "shelf \(id)-\($0).png", format: .png, pixelWidth: 1024,
                pixelHeight: 768, byteSize: 812_400, storedName: "\(id)-\($0).png")
        }
        let lines =
            record.kind == .batch
            ? [BatchLine(barcode: Barcode(value: "4006381333931", symbology: .ean13), quantity: 2), BatchLine(barcode: Barcode(value: "96385074", symbology: .ean8))]
            : []
        return RecordDetail(record: record, photos: photos, lines: lines)
    }

    var state: AppState

    init(size: ScreenSize = ScreenSize(rows: 24, columns: 80)) {
        state = AppState(size: size)
        answer(state.send(.inbox(.loaded(InboxSnapshot(requests: Self.requests, pendingCount: Self.requests.count)))))
    }

    mutating func press(_ keys: [Key]) {
        for key in keys {
            if let action = KeyMap.action(for: key, in: state) { answer(state.send(action)) }
        }
    }

    mutating func send(_ action: AppAction) { answer(state.send(action)) }

    /// Storage's answers, at once; timers and everything else are left unanswered.
    mutating func answer(_ effects: [AppEffect]) {
        for effect in effects {
            switch effect {
            case let .loadHistory(request):
                let end = min(Self.records.count, request.start + request.count)
                let rows = request.start < end ? Array(Self.records[request.start..<end]) : []
                answer(
                    state.send(
                        .history(.pageLoaded(HistoryPage(start: request.start, rows: rows, totalCount: Self.records.count, mode: request.mode)))))
            case let .loadRecordDetail(id):
                answer(state.send(.history(.detailLoaded(id: id, detail: Self.detail(of: id)))))
            case let .search(query, limit):
                let rows = Self.records.filter { ($0.note ?? $0.firstPhotoName ?? "").contains(query) }.prefix(limit)
                answer(state.send(.search(.resultsLoaded(query: query, rows: Array(rows)))))
            default:
                break
            }
        }
    }

    /// The presenter's own screen, drawn as a watcher's hint line would be (the only line a
    /// watcher draws of its own), so what differs is what the watcher was sent.
    func ownText(size: ScreenSize? = nil) -> String {
        var state = self.state
        if let size { _ = state.send(.resized(size)) }
        state.environment.isWatching = true
        return Screen.render(state, options: Self.options).grid.text
    }

    /// What the presenter sends, over the wire and back: as the app's presenter does, with the
    /// list rows its own drawn frame shows.
    func sent() throws -> PresentedScreen {
        let frame = Screen.render(state, options: Self.options)
        let screen = state.presentation == .none ? state.presentedScreen(listRowsOnScreen: frame.listRowsShown) : state.presentedScreen
        let bytes = try JSONEncoder().encode(screen)
        return try JSONDecoder().decode(PresentedScreen.self, from: bytes)
    }

    /// The watcher's state at `size`.
    func watcher(size: ScreenSize) throws -> AppState {
        AppState.watching(try sent(), size: size, environment: DisplayEnvironment())
    }

    func watcherText(size: ScreenSize) throws -> String {
        Screen.render(try watcher(size: size), options: Self.options).grid.text
    }
}
