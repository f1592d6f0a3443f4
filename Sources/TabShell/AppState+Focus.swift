import CaptureMode
import Foundation

extension AppState {
    // MARK: - Focus

    /// Input to whatever has focus: an alert, then a sheet, then capture, then the selected tab.
    mutating func focus(_ input: FocusInput) -> [AppEffect] {
        switch presentation {
        case .alert:
            return input == .escape ? dismissAlert() : []
        case .sheet(.help):
            return toHelp(.input(input))
        case .sheet(.search):
            return toSearch(.input(input))
        case var .fullScreenCapture(capture):
            if capture.isShowingKeys, case let .moved(move) = input {
                scrollCaptureKeys(&capture, move)
                presentation = .fullScreenCapture(capture)
                return []
            }
            return input == .escape ? toCapture(.closeTapped) : []
        case .viewer:
            return input == .escape ? closeViewer() : []
        case .none:
            // A move or Enter on a tab is the user moving on: the last message goes.
            if input == .activated || input.isMove { status = nil }
            switch selectedTab {
            case .inbox: return toInbox(.input(input))
            case .history: return toHistory(.input(input))
            case .settings: return toSettings(.input(input))
            }
        }
    }

    /// ↑↓, PgUp/PgDn, Home/End in capture's list of keys (`?`/F1), which scrolls like the help
    /// sheet when the screen is too short for it.
    private func scrollCaptureKeys(_ capture: inout CaptureState, _ move: ListMove) {
        let count = KeyMap.helpLines(for: KeyMap.captureContexts(for: self) + [.global], in: self, unicode: true).count
        let rows = layout.captureKeysRows
        let offset = move.scrolling(capture.keysScrollOffset, rows: rows)
        capture.keysScrollOffset = min(max(0, offset), max(0, count - rows))
    }

    /// Whether `tab` shows with nothing over it, so its own keys apply.
    func isShowing(_ tab: ContentTab) -> Bool { presentation == .none && selectedTab == tab }

    /// ↑↓ PgUp PgDn Home End on the list with focus. The tab bar changes size first when the
    /// move scrolls (seed 004's `.onScrollDown`, AppState+TabBar.swift), so the list moves (and
    /// reads rows) once, in its new size.
    mutating func moveFocusedList(_ move: ListMove) -> [AppEffect] {
        if let minimized = tabBarSize(for: move), minimized != isTabBarMinimized { applyTabBarSize(minimized: minimized) }
        return focus(.moved(move))
    }
}

private extension FocusInput {
    var isMove: Bool {
        if case .moved = self { return true }
        return false
    }
}
