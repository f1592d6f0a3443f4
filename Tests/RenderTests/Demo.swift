import CaptureMode
import Domain
import Foundation
import Render
import Scanning

@testable import TabShell

/// Hand-built states with fixed dates, so every render is reproducible.
enum Demo {
    /// Friday 14 March 2025, 12:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_741_953_600)

    static func ago(minutes: Double = 0, hours: Double = 0, days: Double = 0) -> Date {
        now.addingTimeInterval(-(minutes * 60 + hours * 3_600 + days * 86_400))
    }

    static let options = RenderOptions(unicode: true, color: true, now: now)
    static let plainOptions = RenderOptions(unicode: false, color: false, now: now)

    // MARK: - Inbox

    static let requests: [InboxRequest] = [
        InboxRequest(
            id: 12, title: "Scan the pallet in bay 4",
            body: "Pallet 17 arrived from Rotterdam this morning. Scan the SSCC label on the north face before it is moved to racking; the driver is waiting at dock 2.",
            kind: .barcode, status: .pending, createdAt: ago(minutes: 5)
        ),
        InboxRequest(
            id: 11, title: "Photograph the damaged carton", body: "Corner crushed, tape torn.",
            kind: .photos, status: .pending, createdAt: ago(hours: 3)
        ),
        InboxRequest(
            id: 9, title: "Note the cold-room temperature", body: "Reading on the display by the door.",
            kind: .note, status: .pending, createdAt: ago(days: 2)
        ),
        InboxRequest(
            id: 7, title: "Check the returns shelf", body: "",
            kind: .barcode, status: .done, createdAt: ago(days: 68)
        ),
        InboxRequest(
            id: 3, title: "Product shots for the spring catalogue", body: "Front and back.",
            kind: .product, status: .done, createdAt: ago(days: 190)
        ),
    ]

    static let wideRequests: [InboxRequest] = [
        InboxRequest(id: 21, title: "倉庫Aの在庫を数える", body: "棚の番号を確認してください。", kind: .note, status: .pending, createdAt: ago(minutes: 1)),
        InboxRequest(id: 22, title: "📦 Pallet from 🇩🇪 Hamburg", body: "", kind: .barcode, status: .pending, createdAt: ago(minutes: 42)),
        InboxRequest(id: 23, title: "👨‍👩‍👧 Family pack, 재고 확인", body: "", kind: .barcode, status: .pending, createdAt: ago(hours: 5)),
        InboxRequest(id: 24, title: "Café crème ✔︎ naïve résumé", body: "", kind: .note, status: .done, createdAt: ago(days: 3)),
        InboxRequest(id: 25, title: "ＡＢＣ全角テキストがとても長いタイトルの例です", body: "", kind: .barcode, status: .pending, createdAt: ago(days: 9)),
    ]

    static func inbox(_ requests: [InboxRequest] = requests, cursor: Int = 0, chosen: Int64? = nil) -> InboxState {
        var inbox = InboxState()
        inbox.requests = requests
        inbox.pendingCount = requests.filter { $0.status == .pending }.count
        inbox.hasLoaded = true
        inbox.list = ListPosition(cursor: cursor, scrollOffset: 0)
        inbox.chosenRequestID = chosen
        return inbox
    }

    // MARK: - History

    static let historyRows: [HistoryRow] = {
        let samples: [(CaptureKind, Barcode?, String?, String?)] = [
            (.barcode, Barcode(value: "4006381333931", symbology: .ean13), nil, "Scan the pallet in bay 4"),
            (.note, nil, "Cold room at 3.5 °C, door seal fine.\nChecked by the night shift.", "Note the cold-room temperature"),
            (.barcode, Barcode(value: "96385074", symbology: .ean8), nil, nil),
            (.product, Barcode(value: "036000291452", symbology: .upcA), nil, "Product shots for the spring catalogue"),
            (.barcode, Barcode(value: "10614141000415", symbology: .gtin14), nil, "Check the returns shelf"),
            (.note, nil, "Forklift 3 needs a new battery before Monday.", nil),
        ]
        return (0..<40).map { index in
            let (kind, barcode, note, request) = samples[index % samples.count]
            return HistoryRow(
                id: Int64(1_234 - index), kind: kind, barcode: barcode, note: note,
                requestID: request == nil ? nil : Int64(12 - index % 5), requestTitle: request,
                createdAt: ago(minutes: Double(index * index * 37)), requestAfterDeletion: request == nil ? nil : .pendingAgain
            )
        }
    }()

    static let wideHistoryRows: [HistoryRow] = [
        HistoryRow(id: 88, kind: .note, barcode: nil, note: "棚3の在庫: りんご 12箱 🍎", requestID: 21, requestTitle: "倉庫Aの在庫を数える", createdAt: ago(minutes: 3)),
        HistoryRow(
            id: 87, kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13), note: nil, requestID: 22, requestTitle: "📦 Pallet from 🇩🇪 Hamburg",
            createdAt: ago(hours: 2)),
        HistoryRow(id: 86, kind: .note, barcode: nil, note: "👨‍👩‍👧 재고 확인 완료 ✔︎", requestID: nil, requestTitle: nil, createdAt: ago(days: 1)),
        HistoryRow(id: 85, kind: .note, barcode: nil, note: "e\u{301}le\u{300}ve — Zürich", requestID: nil, requestTitle: nil, createdAt: ago(days: 30)),
    ]

    static func history(_ rows: [HistoryRow] = historyRows, total: Int = 1_234, cursor: Int = 0, scrollOffset: Int = 0, windowStart: Int = 0) -> HistoryState {
        var history = HistoryState()
        history.hasLoaded = true
        history.totalCount = total
        history.window = HistoryPage(start: windowStart, rows: rows, totalCount: total)
        history.list = ListPosition(cursor: cursor, scrollOffset: scrollOffset)
        return history
    }

    /// History in a grouped mode: the demo rows in the order storage gives them.
    static func groupedHistory(_ mode: HistoryBrowseMode, cursor: Int = 0, scrollOffset: Int = 0) -> HistoryState {
        let rows: [HistoryRow]
        switch mode {
        case .all:
            rows = historyRows
        case .byKind:
            rows = CaptureKind.allCases.flatMap { kind in historyRows.filter { $0.kind == kind } }
        case .byRequest:
            // One id per request title, as in a real database.
            let titles = Set(historyRows.compactMap(\.requestTitle)).sorted { $0.lowercased() < $1.lowercased() }
            let linked = titles.enumerated().flatMap { offset, title in
                historyRows.filter { $0.requestTitle == title }.map { row in
                    var row = row
                    row.requestID = Int64(20 + offset)
                    return row
                }
            }
            rows = linked + historyRows.filter { $0.requestTitle == nil }
        case .byRequester:
            // The requests of the first two titles come from "chef", the others from nobody.
            let withRequester = historyRows.map { row in
                var row = row
                if let title = row.requestTitle, title.hasPrefix("Scan") || title.hasPrefix("Note") { row.requester = "chef" }
                return row
            }
            rows = withRequester.filter { $0.requester != nil } + withRequester.filter { $0.requester == nil }
        }
        var history = history(rows, total: rows.count, cursor: cursor, scrollOffset: scrollOffset)
        history.browseMode = mode
        history.window.mode = mode
        return history
    }

    static let photos: [RecordPhoto] = [
        RecordPhoto(id: 31, position: 0, originalName: "pallet-north-face.jpg", format: .jpeg, pixelWidth: 4032, pixelHeight: 3024, byteSize: 2_143_210),
        RecordPhoto(id: 32, position: 1, originalName: "label close-up.png", format: .png, pixelWidth: 1024, pixelHeight: 768, byteSize: 812_400),
        RecordPhoto(id: 33, position: 2, originalName: "IMG_0007.HEIC", format: .heic, pixelWidth: 0, pixelHeight: 0, byteSize: 1_020),
    ]

    /// History showing the product record (row 3) with its photos, scrolled `scrollOffset` lines.
    static func productDetail(photos: [RecordPhoto]? = photos, scrollOffset: Int = 0) -> HistoryState {
        var history = history(cursor: 3)
        history.stack = [HistoryDetailState(record: historyRows[3], photos: photos, scrollOffset: scrollOffset)]
        return history
    }

    /// The search sheet for `query` with `count` of the demo rows as results.
    static func search(_ query: String, results count: Int, cursor: Int = 0, answered: Bool = true) -> Presentation {
        var search = SearchState(query: query)
        search.isQuerySelected = false  // typed, not reopened
        search.results = Array(historyRows.prefix(count))
        search.resultsQuery = answered ? search.trimmedQuery : nil
        search.list = ListPosition(cursor: cursor, scrollOffset: 0)
        return .sheet(.search(search))
    }

    // MARK: - App

    static func state(
        _ tab: ContentTab = .inbox, columns: Int = 80, rows: Int = 24,
        inbox: InboxState = inbox(), history: HistoryState = history(),
        settings: Settings = .default, presentation: Presentation = .none
    ) -> AppState {
        var state = AppState(settings: settings, size: ScreenSize(rows: rows, columns: columns), databaseLocation: "/home/ana/.local/share/tabshell/tabshell.sqlite")
        state.selectedTab = tab
        state.inbox = inbox
        state.history = history
        state.presentation = presentation
        return state
    }

    static func capture(request: InboxRequest? = nil, _ build: (inout CaptureState) -> Void = { _ in }) -> Presentation {
        var capture = CaptureState(
            config: CaptureConfig(),
            request: request.map { CaptureRequestLink(id: $0.id, title: $0.title, kind: $0.kind) }
        )
        build(&capture)
        return .fullScreenCapture(capture)
    }
}

extension HistoryDetailLayout {
    /// The number of lines of the detail (as the reducer counts them: no age beside the time).
    func lineCount(of detail: HistoryDetailState) -> Int {
        lines(of: detail, glyphs: .unicode, now: nil).count
    }
}
