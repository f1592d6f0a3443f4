import Domain
import Foundation
import TestSupport
import Testing

/// What the room shows, with real ssh clients in tmux: a presenter on a small
/// terminal keeps its Inbox heading's count beside the watch code; a watcher on a large one
/// shows its own keys from the first frame, only the History rows the presenter's screen shows
/// (never the records below them), a record's photos by their facts (never a "Loading…" that
/// does not end), and capture's question before discarding.
extension PresentWatchEndToEndTests {
    @Test func aWatcherSeesWhatThePresenterSeesAndNoMore() async throws {
        let server = try ServeEndToEndTests.Server(people: [], demo: true)
        let presenter = try Self.ssh(server, "present", columns: 80, rows: 12)
        let first = try await presenter.waitUntil("the watch code", timeout: 30) { Self.code(on: $0) != nil && $0.contains("0 watching") }
        let code = try #require(Self.code(on: first))
        // The Inbox's count stays beside the code.
        #expect(first.contains("3 pending"), "\(first)")

        let projector = try Self.ssh(server, "watch \(code)", columns: 160, rows: 48)
        let watched = try await projector.waitUntil("the projector watching") { $0.contains("watching \(code)") && $0.contains("[ Inbox") }
        // Its own keys from the start; none of the presenter's.
        #expect(watched.contains("q leave") && watched.contains("? help"), "\(watched)")
        #expect(!watched.contains("Enter capture") && !watched.contains("Space choose"), "\(watched)")

        // History on 12 rows shows 6 of the demo's 8 records: the projector has room for all
        // and shows the same 6.
        try presenter.press("3")
        let presenterHistory = try await presenter.waitUntil("History") { $0.contains("4006381333931") }
        #expect(!presenterHistory.contains("7622210449283"))
        let history = try await projector.waitUntil("History on the projector") { $0.contains("4006381333931") && $0.contains("8 records") }
        #expect(!history.contains("7622210449283") && !history.contains("5901234123457"), "\(history)")

        // The product record with two photos: their facts on the projector, no "Loading…".
        try presenter.press("End")
        try presenter.press("Up")
        try await presenter.waitUntil("the product record highlighted") { $0.contains("5901234123457") }
        try presenter.press("Enter")
        try await presenter.waitUntil("the record open") { $0.contains("Record #") }
        let detail = try await projector.waitUntil("the photos' facts") { $0.contains("coffee-beans-front.png") }
        #expect(detail.contains("PNG") && !detail.contains("Loading"), "\(detail)")

        // Capture's question before discarding reaches the projector.
        try presenter.press("Escape")
        try presenter.press("+")
        try await presenter.waitUntil("the kind picker") { $0.contains("Barcode") && !$0.contains("Record #") }
        try presenter.press("Enter")
        try presenter.type("12")
        try presenter.press("Escape")
        try await presenter.waitUntil("the question") { $0.contains("Discard this capture?") }
        try await projector.waitUntil("the question on the projector") { $0.contains("Discard this capture?") }
        try presenter.type("y")
        try await projector.waitUntil("capture gone on the projector") { !$0.contains("Discard this capture?") && $0.contains("8 records") }

        try presenter.press("q")
        #expect(try await ServeEndToEndTests.exitCode(presenter) == 0)
        try await projector.waitUntil("the end said") { $0.contains("The presentation ended.") }
        #expect(try await ServeEndToEndTests.exitCode(projector) == 0)
    }
}
