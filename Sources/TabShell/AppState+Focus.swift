import CaptureMode
import Foundation

extension AppState {
    // MARK: - Focus

    /// Input to whatever has focus (`focus`, Focus.swift).
    mutating func toFocus(_ input: FocusInput) -> [AppEffect] {
        switch focus {
        case .tooSmall:
            return []
        case .alert, .question:
            return input == .escape ? dismissAlert() : []
        case .help:
            return toHelp(.input(input))
        case .search:
            return toSearch(.input(input))
        case .capture(.keys):
            if case let .moved(move) = input, var capture = presentation.capture {
                scrollCaptureKeys(&capture, move)
                presentation = .fullScreenCapture(capture)
                return []
            }
            return input == .escape ? toCapture(.closeTapped) : []
        case .capture:
            return input == .escape ? toCapture(.closeTapped) : []
        case .viewer:
            return input == .escape ? closeViewer() : []
        case .inbox, .history, .historyDetail, .settings:
            // A move or Enter on a tab is the user moving on: the last message goes.
            switch input {
            case .moved, .activated: status = nil
            case .clicked, .escape: break
            }
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
        capture.overlay = .keys(scrollOffset: min(max(0, offset), max(0, count - rows)))
    }

    /// Whether `tab` shows with nothing over it, so its own keys apply.
    func isShowing(_ tab: ContentTab) -> Bool { presentation == .none && selectedTab == tab }

    /// ↑↓ PgUp PgDn Home End on the list with focus. The tab bar changes size first when the
    /// move scrolls (seed 004's `.onScrollDown`, AppState+TabBar.swift), so the list moves (and
    /// reads rows) once, in its new size.
    mutating func moveFocusedList(_ move: ListMove) -> [AppEffect] {
        if let minimized = tabBarSize(for: move), minimized != isTabBarMinimized { applyTabBarSize(minimized: minimized) }
        return toFocus(.moved(move))
    }
}
