import CaptureMode
import Foundation
import Render
import Testing

@testable import TabShell

/// A watcher draws what the presenter sees: at the presenter's own size the
/// watcher's screen is the presenter's, line for line, whatever is presented; at another size it
/// is laid out anew, and it is never sent more than the presenter's screen shows.
@Suite struct PresentedScreenTests {
    static let sizes = [ScreenSize(rows: 12, columns: 40), ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 48, columns: 160)]

    static let code: [Key] = "4006381333931".map { .character($0) }

    /// Journeys a presenter takes, each ending on a screen with something presented or shown.
    static let journeys: [(name: String, keys: [Key], actions: [AppAction])] = [
        ("the Inbox", [], []),
        ("the Inbox scrolled", Array(repeating: .down, count: 9), []),
        ("search", [.character("/")] + "note 1".map { .character($0) } + [.down, .down], []),
        ("help", [.character("?"), .pageDown], []),
        ("History scrolled", [.character("3")] + Array(repeating: .down, count: 14), []),
        ("a record's photos", [.character("3"), .down, .down, .enter], []),
        ("a batch's lines", [.character("3"), .down, .enter], []),
        ("History's delete question", [.character("3"), .character("d")], []),
        ("History's clear-all question", [.character("3"), .character("D")], []),
        ("capture's picker", [.character("+")], []),
        ("capture's refused code", [.character("+")], [.capture(.kindChosen(.barcode)), .capture(.textTyped("12")), .capture(.enterPressed)]),
        ("capture's discard question", [.character("+")], [.capture(.kindChosen(.note)), .capture(.textTyped("Wet floor")), .capture(.closeTapped)]),
        ("capture's keys", [.character("+")], [.capture(.kindChosen(.photos)), .capture(.keysToggled)]),
        ("capture saving", [.character("+")], [.capture(.kindChosen(.note)), .capture(.textTyped("Wet floor")), .capture(.doneTapped)]),
        (
            "a batch being scanned", [.character("+")],
            [
                .capture(.kindChosen(.batch)), .capture(.textTyped("4006381333931")), .capture(.enterPressed),
                .capture(.textTyped("96385074")), .capture(.enterPressed), .capture(.textTyped("4006381333931")), .capture(.enterPressed),
            ]
        ),
    ]

    static func stage(_ journey: (name: String, keys: [Key], actions: [AppAction]), size: ScreenSize) -> PresenterStage {
        var stage = PresenterStage(size: size)
        stage.press(journey.keys)
        for action in journey.actions { stage.send(action) }
        return stage
    }

    @Test(arguments: sizes)
    func atThePresentersSizeTheWatcherSeesThePresentersScreen(size: ScreenSize) throws {
        for journey in Self.journeys {
            let stage = Self.stage(journey, size: size)
            #expect(try stage.watcherText(size: size) == stage.ownText(), "\(journey.name) at \(size.columns)x\(size.rows)")
        }
    }

    @Test func capturesQuestionsReachTheWatcherAtAnySize() throws {
        let discard = Self.journeys.first { $0.name == "capture's discard question" }!
        let saving = Self.journeys.first { $0.name == "capture saving" }!
        for size in Self.sizes {
            let presenter = Self.stage(discard, size: ScreenSize(rows: 24, columns: 80))
            #expect(presenter.state.presentation.capture?.isConfirmingClose == true)
            let text = try presenter.watcherText(size: size)
            #expect(text.contains("Discard this capture?"), "at \(size.columns)x\(size.rows)")
            #expect(try Self.stage(saving, size: ScreenSize(rows: 24, columns: 80)).watcherText(size: size).contains("Saving"))
        }
    }

    @Test func aBatchsScansReachTheWatcher() throws {
        let batch = Self.journeys.first { $0.name == "a batch being scanned" }!
        let text = try Self.stage(batch, size: ScreenSize(rows: 24, columns: 80)).watcherText(size: ScreenSize(rows: 12, columns: 40))
        #expect(text.contains("96385074"))
        #expect(text.contains("4006381333931"))
    }

    // MARK: - Photos

    @Test func aRecordsPhotosShowTheirFactsToAWatcherNeverLoadingForever() throws {
        let photos = Self.journeys.first { $0.name == "a record's photos" }!
        let stage = Self.stage(photos, size: ScreenSize(rows: 24, columns: 80))
        let id = try #require(stage.state.history.detail?.record.id)
        #expect(stage.state.history.detail?.photos?.count == 2)
        for size in Self.sizes {
            let text = try stage.watcherText(size: size)
            #expect(text.contains("shelf \(id)-0.png"), "at \(size.columns)x\(size.rows)")
            #expect(text.contains("1024×768"))
            #expect(!text.contains("Loading"))
        }
        // Nothing of where the presenter's files are is sent.
        #expect(try stage.sent().detail?.photos?.allSatisfy { $0.storedName.isEmpty } == true)
    }

    @Test func theViewerTellsAWatcherPhotosAreNotShownAndGivesTheFacts() throws {
        var stage = PresenterStage()
        stage.press([.character("3"), .down, .down, .enter])
        let photos = try #require(stage.state.history.detail?.photos)
        let viewer = try #require(PhotoViewerState(photos: photos.compactMap(ViewerPhoto.init), index: 1))
        stage.state.presentation = .viewer(viewer, over: .none)
        for size in Self.sizes {
            let text = try stage.watcherText(size: size)
            #expect(text.contains("Photos are not shown to watchers"), "at \(size.columns)x\(size.rows)")
            #expect(text.contains("2/2"))
            #expect(text.contains("PNG"))
            #expect(!text.contains("Loading"))
        }
    }

    // MARK: - Only what the presenter's screen shows

    /// The data rows a screen shows of the fixed data: requests and records by their titles.
    static func dataRows(in text: String) -> Int {
        text.split(separator: "\n").filter { $0.contains("Request number") || $0.contains("Record note") || $0.contains("shelf ") }.count
    }

    @Test func aTallWatcherIsSentOnlyTheRowsASmallPresenterShows() throws {
        let small = ScreenSize(rows: 12, columns: 80)
        let huge = ScreenSize(rows: 200, columns: 200)
        for journey in Self.journeys where ["the Inbox", "the Inbox scrolled", "History scrolled", "search", "History's delete question"].contains(journey.name) {
            let stage = Self.stage(journey, size: small)
            let sent = try stage.sent()
            let shown = Self.dataRows(in: stage.ownText())
            let results = sent.layers.reduce(0) { count, layer in
                if case let .search(search) = layer { return count + search.results.count }
                return count
            }
            #expect(shown > 0, "\(journey.name)")
            switch journey.name {
            case "search":
                // The sheet covers the list at this width: its results are what shows.
                #expect(results == shown, "\(journey.name): \(results) results sent, \(shown) shown")
            case "History's delete question":
                // The question covers some of the rows in view; those are sent, no more.
                #expect(sent.history.count == PresenterStage(size: small).state.layout.historyListRows)
            default:
                #expect(sent.inbox.count + sent.history.count == shown, "\(journey.name): \(sent.inbox.count) requests and \(sent.history.count) records sent, \(shown) shown")
            }
            let watched = try stage.watcherText(size: huge)
            if journey.name == "search" {
                let drawn = watched.split(separator: "\n").filter { $0.contains("Record note") }.count
                #expect(drawn == results, "\(journey.name): the watcher at 200x200 shows \(drawn) results")
            } else {
                let drawn = Self.dataRows(in: watched)
                #expect(drawn == sent.inbox.count + sent.history.count, "\(journey.name): the watcher at 200x200 shows \(drawn) rows")
            }
            // The counts are the presenter's: the heading still says where the list is.
            #expect(watched.contains(stage.state.selectedTab == .inbox ? "60 pending" : "120 records"), "\(journey.name)")
        }
    }

    /// A status sentence wrapped over the presenter's last list row (a notice at start) takes
    /// that row off the presenter's screen: it is not sent to a tall watcher either.
    @Test(arguments: [ScreenSize(rows: 12, columns: 80), ScreenSize(rows: 12, columns: 40)])
    func aRowAStatusSentenceCoversIsNotSent(size: ScreenSize) throws {
        var stage = PresenterStage(size: size)
        stage.state.status = StatusMessage("You are connected in another session too: this one starts fresh and is not kept if it drops.")
        let shown = Self.dataRows(in: stage.ownText())
        let sent = try stage.sent()
        #expect(shown > 0)
        #expect(shown < stage.state.layout.inboxListRows, "the sentence covers a row at \(size.columns) columns")
        #expect(sent.inbox.count == shown, "\(sent.inbox.count) requests sent, \(shown) on the presenter's screen")
        let drawn = Self.dataRows(in: try stage.watcherText(size: ScreenSize(rows: 200, columns: 200)))
        #expect(drawn == shown, "the watcher at 200x200 shows \(drawn)")
    }

    @Test func theSelectedRowStaysInAShortWatchersView() throws {
        var stage = PresenterStage(size: ScreenSize(rows: 48, columns: 80))
        stage.press(Array(repeating: .down, count: 30))
        let text = try stage.watcherText(size: ScreenSize(rows: 12, columns: 80))
        #expect(text.contains("› ● Request number 31 "))
        #expect(text.contains("31/60"))
    }

    @Test func tabsNotOnScreenSendNoRows() throws {
        var stage = PresenterStage()
        stage.press([.character("3")])
        #expect(try stage.sent().inbox.isEmpty)
        stage.press([.character("1"), .character("+")])
        let sent = try stage.sent()
        #expect(sent.inbox.isEmpty && sent.history.isEmpty)
    }

    // MARK: - The watcher's own keys and the heading

    @Test func aWatchersHintLineShowsItsOwnKeysFromTheStart() throws {
        for journey in Self.journeys {
            let stage = Self.stage(journey, size: ScreenSize(rows: 24, columns: 80))
            let text = try stage.watcherText(size: ScreenSize(rows: 24, columns: 80))
            let hints = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).first { $0.contains("q leave") }, "\(journey.name)")
            #expect(hints.contains("? help"), "\(journey.name)")
            #expect(!hints.contains("Enter") && !hints.contains("Space") && !hints.contains("capture"), "\(journey.name): \(hints)")
        }
    }

    @Test(arguments: [ScreenSize(rows: 12, columns: 40), ScreenSize(rows: 24, columns: 80)])
    func presentingKeepsTheHeadingsContextAndShowsTheBadge(size: ScreenSize) throws {
        var stage = PresenterStage(size: size)
        stage.state.environment.presenting = "watch 7468 · 0 watching"
        let lines = Screen.render(stage.state, options: PresenterStage.options).grid.text.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = lines.prefix(2).joined(separator: "\n")
        #expect(lines[0].contains("60 pending"), "\(lines[0])")
        #expect(heading.contains("watch 7468 · 0 watching"), "\(heading)")
        // A badge too long for the rule keeps the code and cuts the names.
        stage.state.environment.presenting = "watch k7mq-3fzp-x9hd · 3 watching: ana, bo, carmen-the-long-named"
        let long = Screen.render(stage.state, options: PresenterStage.options).grid.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(long[0].contains("60 pending"))
        #expect(long.prefix(2).joined().contains("watch k7mq-3fzp-x9hd"))
    }

    // MARK: - Bounds on what is received

    @Test func typedTextAndTheStatusReachTheWatcher() throws {
        var stage = PresenterStage()
        stage.press([.character("/"), .character("p"), .character("a"), .character("l")])
        stage.state.status = StatusMessage("Copied the code")
        let text = try stage.watcherText(size: ScreenSize(rows: 12, columns: 40))
        #expect(text.contains("pal"))
        #expect(text.contains("Copied the code"))
    }

    @Test func oversizedListsAndTextsAreCutOnReceipt() throws {
        var stage = PresenterStage()
        stage.press([.character("+")])
        stage.send(.capture(.kindChosen(.note)))
        stage.send(.capture(.closeTapped))
        var screen = try PresenterStage().sent()
        screen.inbox = Array(repeating: screen.inbox[0], count: PresentedScreen.maximumRows * 3)
        screen.inbox[0].title = String(repeating: "x", count: 100_000)
        screen.inboxPart = ListPart(offset: -7, total: -3)
        screen.historyStart = -5
        screen.historyTotal = -9
        screen.status = String(repeating: "\u{1b}[31m", count: 10_000)
        screen.layers = Array(repeating: .alert(Alert(title: String(repeating: "\u{1b}]52;c;", count: 5000), message: "m")), count: 50)
        let bounded = screen.bounded()
        #expect(bounded.inbox.count == PresentedScreen.maximumRows)
        #expect(bounded.inbox[0].title.count == PresentedScreen.maximumText)
        #expect(bounded.inboxPart.offset == 0 && bounded.inboxPart.total >= bounded.inbox.count)
        #expect(bounded.historyStart == 0 && bounded.historyTotal >= 0)
        #expect((bounded.status?.count ?? 0) <= PresentedScreen.maximumText)
        #expect(bounded.layers.count == PresentedScreen.maximumLayers)
        // And drawn, no escape reaches the grid.
        for size in Self.sizes {
            let state = AppState.watching(screen, size: size, environment: DisplayEnvironment())
            #expect(!Screen.render(state, options: PresenterStage.options).grid.text.contains("\u{1b}"))
        }
    }
}
