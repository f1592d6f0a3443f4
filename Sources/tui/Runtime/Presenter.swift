import Foundation
import Presenting
import Render
import TabShell

/// `--present`: the session's room, fed the presented state after each frame the
/// app draws. With nobody watching nothing is encoded; with watchers the state is encoded once
/// per changed frame and handed to the room, which never makes the loop wait.
final class Presenter {
    let room: PresentationRoom
    private var lastSent: PresentedScreen?
    private var lastState: AppState?
    private let encoder = JSONEncoder()

    init(environment: [String: String], wake: @escaping @Sendable () -> Void) throws(PresentError) {
        let limit = environment[PresentDirectory.watcherLimitKey].flatMap(Int.init) ?? PresentationRoom.defaultMaximumWatchers
        room = try PresentationRoom(
            directory: .forEnvironment(environment), code: environment[PresentDirectory.codeKey].flatMap(WatchCode.init),
            maximumWatchers: limit
        ) { _ in wake() }
    }

    /// "watch k7mq-3fzp-x9hd · 2 watching: ana, bo": who watches, not only how many.
    var badge: String {
        let names = room.watcherNames
        return "watch \(room.code) · \(names.count) watching" + (names.isEmpty ? "" : ": " + names.joined(separator: ", "))
    }

    /// The app drew `state`: watchers get it (a newcomer's first frame comes from here too, as
    /// its arrival wakes the loop, which calls this again).
    func drawn(_ state: AppState, frame: Frame) {
        lastState = state
        lastRows = frame.listRowsShown
        publishIfWatched(force: false)
    }

    private var lastRows: Range<Int>?

    /// After a wake: a watcher who just came needs the current screen now.
    func watchersChanged() {
        let watching = room.watcherCount
        defer { lastCount = watching }
        if watching > lastCount { publishIfWatched(force: true) }
    }
    private var lastCount = 0

    private func publishIfWatched(force: Bool) {
        guard room.watcherCount > 0, let state = lastState else {
            lastSent = nil
            return
        }
        let screen = state.presentation == .none ? state.presentedScreen(listRowsOnScreen: lastRows) : state.presentedScreen
        guard force || screen != lastSent, let data = try? encoder.encode(screen) else { return }
        lastSent = screen
        room.publish(data)
    }

    func end() {
        room.end()
    }
}
