import CaptureMode
import Foundation

/// What has focus: the one screen or overlay that takes input now. `AppState.focus` computes it,
/// once; the key table (`KeyMap.contexts`), the router (`AppState.toFocus`) and the renderer
/// (the too-small notice, the hint line) all read it.
public enum Focus: Equatable, Sendable {
    /// Below the minimum size only the notice shows: no key acts on a screen unseen.
    case tooSmall
    /// An alert that only tells (its buttons are OK or Cancel).
    case alert
    /// An alert that asks before something is deleted or dropped.
    case question
    case viewer
    case help
    case search
    case capture(CaptureFocus)
    case inbox
    case history
    case historyDetail
    case settings
}

extension AppState {
    /// What has focus now: the too-small notice, else `focusedScreen`.
    public var focus: Focus { layout.isTooSmall ? .tooSmall : focusedScreen }

    /// What would have focus at any size: an alert, then the photo viewer, a sheet, capture (its
    /// overlays first), then the selected tab (History's record detail when one is open).
    public var focusedScreen: Focus {
        switch presentation {
        case let .alert(alert, _): return alert.isConfirmation ? .question : .alert
        case .viewer: return .viewer
        case .sheet(.help): return .help
        case .sheet(.search): return .search
        case let .fullScreenCapture(capture): return .capture(capture.focus)
        case .none:
            switch selectedTab {
            case .inbox: return .inbox
            case .history: return history.stack.isEmpty ? .history : .historyDetail
            case .settings: return .settings
            }
        }
    }
}
