import CaptureMode
import Foundation
import TabShell
import Testing

/// A database server that went away is state, not a message: it stays known (and said in every
/// heading) across tab switches, sheets, captures and keys, until the server is back.
@Suite struct ReachabilityTests {
    static let sentence = "Cannot reach PostgreSQL at db.example:5432: the connection was lost."

    @Test func goneIsKeptUntilBackWhateverHappensMeanwhile() {
        var state = AppState.loaded(historyTotal: 20)
        _ = state.send(.databaseReachability(problem: Self.sentence))
        #expect(state.storeReach.problem == Self.sentence)
        #expect(state.status?.kind == .error, "said once on the status line as well")
        let actions: [AppAction] = [
            .tabChosen(.history), .listMoved(.down), .tabChosen(.settings), .helpRequested, .escapePressed,
            .tabChosen(.inbox), .searchRequested, .escapePressed, .tabChosen(.create), .capture(.kindChosen(.note)),
            .storageFailed(Self.sentence), .databaseChangedElsewhere,
        ]
        for action in actions {
            _ = state.send(action)
            #expect(state.storeReach.problem == Self.sentence, "still unreachable after \(action)")
        }
        #expect(state.status == nil || state.status?.text == Self.sentence)

        let effects = state.send(.databaseReachability(problem: nil))
        #expect(state.storeReach.problem == nil)
        #expect(state.status?.text == "The database is reachable again.")
        #expect(effects.contains(where: { if case .loadInbox = $0 { true } else { false } }), "what is shown is read again")
    }

    @Test func aNewReasonReplacesTheOld() {
        var state = AppState.loaded()
        _ = state.send(.databaseReachability(problem: Self.sentence))
        let frozen = "Cannot reach PostgreSQL at db.example:5432: no answer within 5 s."
        _ = state.send(.databaseReachability(problem: frozen))
        #expect(state.storeReach.problem == frozen)
    }
}
