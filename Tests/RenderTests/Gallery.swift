import CaptureMode
import Domain
import Foundation
import Render

@testable import TabShell

/// One state of every kind of screen, for tests that must hold everywhere (no crash, exact
/// widths, no unsafe characters, Done and Close visible). Sizes are set by each test.
enum Gallery {
    static let hostile =
        "\u{1B}[31mRED\u{1B}[0m \u{9B}2J \u{1B}]0;pwned\u{07} \u{202E}evil\u{202C} bell\u{07}\r\nover\u{08}\u{08}write del\u{7F} \u{200F}\u{2066}x\u{2069}\u{061C} \u{85}\u{0}"

    /// Every data string passes through `data`: to append hostile text, or to strip it to ASCII.
    static func states(data text: (String) -> String = { $0 }) -> [(name: String, state: AppState)] {
        let isHostile = text("") != ""
        let requests = (Demo.requests + Demo.wideRequests).map { request in
            var request = request
            request.title = text(request.title)
            request.body = text(request.body)
            return request
        }
        let rows = (Demo.historyRows.prefix(8) + Demo.wideHistoryRows).map { row in
            var row = row
            row.note = row.note.map(text)
            row.requestTitle = row.requestTitle.map(text)
            if let barcode = row.barcode, isHostile { row.barcode = Barcode(value: text(barcode.value), symbology: .freeText) }
            return row
        }
        let inbox = Demo.inbox(requests, cursor: 1, chosen: requests[0].id)
        // Wide text at both cell parities, so overlays cut wide characters somewhere.
        let wideOnly = Demo.inbox(
            Array(requests.suffix(5))
                + requests.suffix(5).map { request in
                    var request = request
                    request.id += 100
                    request.title = "x" + request.title
                    return request
                })
        let history = Demo.history(Array(rows), total: 5_000, cursor: 2)
        var detail = history
        detail.stack = [HistoryDetailState(record: rows[1])]
        var codeDetail = history
        codeDetail.stack = [HistoryDetailState(record: rows[0])]
        var photosDetail = history
        let photos = Demo.photos.map { photo in
            var photo = photo
            photo.originalName = text(photo.originalName)
            return photo
        }
        var product = rows[3]
        product.note = text("Two cartons crushed at the corner, tape torn on the north face.")
        photosDetail.stack = [HistoryDetailState(record: product, photos: photos, scrollOffset: 2)]
        var byRequest = history
        byRequest.browseMode = .byRequest
        byRequest.window.mode = .byRequest
        var highlighted = inbox
        highlighted.highlight = RequestHighlight(requestID: requests[2].id, token: 1, isShowing: true)
        var search = SearchState(query: text("4006"))
        search.results = Array(rows)
        search.resultsQuery = search.trimmedQuery
        search.list = ListPosition(cursor: 1, scrollOffset: 0)
        let request = requests[0]
        let freeText = Settings(allowFreeTextCodes: true)

        func shell(
            _ tab: ContentTab, inbox: InboxState = inbox, history: HistoryState = history,
            settings: Settings = .default, presentation: Presentation = .none
        ) -> AppState {
            var state = Demo.state(tab, inbox: inbox, history: history, settings: settings, presentation: presentation)
            state.databaseLocation = text("/home/ana/.local/share/tabshell/tabshell.sqlite")
            state.status = isHostile ? StatusMessage(text("Saved"), kind: .error) : nil
            return state
        }
        func capture(_ build: (inout CaptureState) -> Void) -> Presentation {
            var capture = CaptureState(
                config: CaptureConfig(allowsFreeText: true),
                request: CaptureRequestLink(id: request.id, title: request.title, kind: .barcode)
            )
            build(&capture)
            return .fullScreenCapture(capture)
        }

        return [
            ("inbox", shell(.inbox)),
            ("history", shell(.history)),
            ("history detail", shell(.history, history: detail)),
            ("history code detail", shell(.history, history: codeDetail)),
            ("history by request", shell(.history, history: byRequest)),
            ("history photos detail", shell(.history, history: photosDetail)),
            ("inbox highlight", shell(.inbox, inbox: highlighted)),
            ("search", shell(.history, presentation: .sheet(.search(search)))),
            ("confirm delete", shell(.history, presentation: .alert(.confirmDeletion(of: rows[0], photoCount: 2), over: .none))),
            ("confirm clear all", shell(.settings, presentation: .alert(.confirmClearAll(count: 5_000), over: .none))),
            ("settings", shell(.settings)),
            ("bar on top", shell(.inbox, settings: Settings(tabBarPosition: .top))),
            ("help", shell(.history, presentation: .sheet(.help(HelpState(scrollOffset: 30))))),
            ("alert", shell(.inbox, presentation: .alert(Alert(title: text("Title"), message: text(Alert.requestRequired.message)), over: .none))),
            ("alert over wide inbox", shell(.inbox, inbox: wideOnly, presentation: .alert(.requestRequired, over: .none))),
            ("help over wide inbox", shell(.inbox, inbox: wideOnly, presentation: .sheet(.help(HelpState(scrollOffset: 3))))),
            ("alert over help", shell(.inbox, presentation: .alert(.requestRequired, over: .sheet(.help(HelpState(scrollOffset: 0)))))),
            ("picker", shell(.inbox, presentation: Demo.capture { _ = $0.send(.kindChosen(.photos)) })),
            (
                "barcode",
                shell(
                    .inbox,
                    presentation: capture {
                        _ = $0.send(.textTyped(text("400638133393")))
                        _ = $0.send(.enterPressed)
                    })
            ),
            ("barcode toast", shell(.inbox, settings: freeText, presentation: capture { _ = $0.send(.textPasted(text("4006381333931"))) })),
            (
                "review",
                shell(
                    .inbox,
                    presentation: capture {
                        _ = $0.send(.textPasted(text("4006381333931")))
                        _ = $0.send(.autoAdvanceElapsed(token: $0.autoAdvanceToken))
                    })
            ),
            (
                "note",
                shell(
                    .inbox,
                    presentation: Demo.capture {
                        _ = $0.send(.kindChosen(.note))
                        _ = $0.send(.textTyped(text("棚3の在庫 🍎 👨‍👩‍👧 counted twice by the morning shift.\nSecond line")))
                        _ = $0.send(.doneTapped)
                        _ = $0.send(.commitFailed(text("Locked")))
                    })
            ),
            (
                "saving",
                shell(
                    .inbox,
                    presentation: Demo.capture {
                        _ = $0.send(.kindChosen(.barcode))
                        _ = $0.send(.textPasted("96385074"))
                        _ = $0.send(.doneTapped)
                    })
            ),
            ("alert over capture", shell(.inbox, presentation: .alert(.requestRequired, over: Demo.capture()))),
        ]
    }

    static func hostileStates() -> [(name: String, state: AppState)] {
        states { "\($0) \(hostile)" }
    }

    static func asciiStates() -> [(name: String, state: AppState)] {
        states { String(String.UnicodeScalarView($0.unicodeScalars.filter(\.isASCII))) }
    }

    static func resized(_ state: AppState, columns: Int, rows: Int) -> AppState {
        var state = state
        state.size = ScreenSize(rows: rows, columns: columns)
        return state
    }
}
