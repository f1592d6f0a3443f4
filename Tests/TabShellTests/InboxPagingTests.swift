import CaptureMode
import Domain
import Foundation
import Testing

@testable import TabShell

/// The Inbox reads a page at start and a page more as the cursor nears the end of what it read,
/// so start-up does not grow with the number of requests.
@Suite struct InboxPagingTests {
    static func requests(_ range: Range<Int>) -> [InboxRequest] {
        range.map { index in
            InboxRequest(
                id: Int64(index + 1), title: "Request \(index)", body: "", kind: .note, status: .pending,
                createdAt: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)))
        }
    }

    @Test func startReadsOnePageAndTheEndOfItAsksForOneMore() {
        var state = AppState()
        #expect(state.send(.started).contains(.loadInbox(limit: InboxSnapshot.pageSize)))
        _ = state.send(.inbox(.loaded(InboxSnapshot(requests: Self.requests(0..<200), pendingCount: 1_000_000, hasMore: true))))
        #expect(state.inbox.pendingCount == 1_000_000)

        var inbox = state.inbox
        // Far from the end: nothing more is read.
        #expect(inbox.send(.input(.moved(.pageDown)), viewport: 20).effects.isEmpty)
        // At the end: one page more, asked for once however many keys follow.
        #expect(inbox.send(.input(.moved(.end)), viewport: 20).effects == [.loadInbox(limit: 400)])
        #expect(inbox.send(.input(.moved(.up)), viewport: 20).effects.isEmpty)
        #expect(inbox.send(.input(.moved(.end)), viewport: 20).effects.isEmpty)
        // It came: the cursor stays on its request; the reloads that follow keep the 400.
        _ = inbox.send(.loaded(InboxSnapshot(requests: Self.requests(0..<400), pendingCount: 1_000_000, hasMore: false)), viewport: 20)
        #expect(inbox.highlightedRequest?.id == 200)
        #expect(inbox.loadEffect == .loadInbox(limit: 400))
        // Nothing follows: the end asks for nothing.
        #expect(inbox.send(.input(.moved(.end)), viewport: 20).effects.isEmpty)
        #expect(inbox.highlightedRequest?.id == 400)
    }

    @Test func aShortInboxNeverAsksForMore() {
        var inbox = InboxState()
        _ = inbox.send(.loaded(InboxSnapshot(requests: Self.requests(0..<30), pendingCount: 30)), viewport: 20)
        #expect(inbox.send(.input(.moved(.end)), viewport: 20).effects.isEmpty)
        #expect(inbox.send(.input(.clicked(row: 29)), viewport: 20).effects.isEmpty)
    }

    @Test func groupingByRequesterReadsEveryRequestFirst() {
        // Given the first page of a long Inbox, the cursor on the second request
        var inbox = InboxState()
        var requests = Self.requests(0..<400)
        for index in requests.indices { requests[index].requester = index % 2 == 0 ? "zoe" : "amy" }
        _ = inbox.send(.loaded(InboxSnapshot(requests: Array(requests[0..<200]), pendingCount: 400, hasMore: true)), viewport: 20)
        _ = inbox.send(.input(.moved(.down)), viewport: 20)
        #expect(inbox.highlightedRequest?.id == 2)

        // When `b` groups: every request is read (a group must not miss those not read yet)
        let grouped = inbox.send(.groupingToggled, viewport: 20)
        #expect(grouped.effects == [.loadInbox(limit: InboxState.everything)])
        #expect(inbox.send(.input(.moved(.end)), viewport: 20).effects.isEmpty)

        // Then, once they came, each group has all of its requests and the cursor its request
        _ = inbox.send(.input(.moved(.home)), viewport: 20)
        _ = inbox.send(.loaded(InboxSnapshot(requests: requests, pendingCount: 400, hasMore: false)), viewport: 20)
        #expect(inbox.requests.count == 400)
        #expect(inbox.requests.prefix(200).allSatisfy { $0.requester == "amy" })
        #expect(inbox.requests.suffix(200).allSatisfy { $0.requester == "zoe" })
        #expect(inbox.loadEffect == .loadInbox(limit: InboxState.everything))

        // And ungrouped, reloads read pages again, as far as the cursor
        #expect(inbox.send(.groupingToggled, viewport: 20).effects.isEmpty)
        #expect(inbox.loadEffect == .loadInbox(limit: InboxSnapshot.pageSize))

        // And a short Inbox, all read already, groups without reading again
        var short = InboxState()
        _ = short.send(.loaded(InboxSnapshot(requests: Self.requests(0..<30), pendingCount: 30)), viewport: 20)
        #expect(short.send(.groupingToggled, viewport: 20).effects.isEmpty)
    }
}
