import CaptureMode
import Foundation

/// A partial overlay over the current tab; the tab bar stays visible and clickable around it.
public enum Sheet: Equatable, Sendable {
    /// Every key binding, generated from `KeyMap`.
    case help(HelpState)
    /// Search History (seed 004's search role): the query, its results and the highlighted one.
    case search(SearchState)
}

/// What is presented over the tab shell: at most one thing, plus an alert on top of it.
public indirect enum Presentation: Equatable, Sendable {
    case none
    case sheet(Sheet)
    case fullScreenCapture(CaptureState)
    case alert(Alert, over: Presentation)
    /// A photo full screen, over what it was opened from (a record's detail, or capture).
    case viewer(PhotoViewerState, over: Presentation)

    /// The capture session, if capture mode is showing (under an alert or not).
    public var capture: CaptureState? {
        switch self {
        case let .fullScreenCapture(capture): capture
        case let .alert(_, over), let .viewer(_, over): over.capture
        case .none, .sheet: nil
        }
    }

    /// The same presentation with `capture` in place of the capture it shows (under an alert or
    /// the photo viewer too); unchanged when it shows none.
    func replacingCapture(with capture: CaptureState) -> Presentation {
        switch self {
        case .fullScreenCapture: .fullScreenCapture(capture)
        case let .alert(alert, over): .alert(alert, over: over.replacingCapture(with: capture))
        case let .viewer(viewer, over): .viewer(viewer, over: over.replacingCapture(with: capture))
        case .none, .sheet: self
        }
    }

    public var alert: Alert? {
        if case let .alert(alert, _) = self { return alert }
        return nil
    }

    public var sheet: Sheet? {
        switch self {
        case let .sheet(sheet): sheet
        case let .alert(_, over): over.sheet
        case .none, .fullScreenCapture, .viewer: nil
        }
    }

    /// The photo viewer, if it is showing and nothing is over it.
    public var viewer: PhotoViewerState? {
        if case let .viewer(viewer, _) = self { return viewer }
        return nil
    }

    /// The search sheet, if it is showing and nothing is over it.
    public var search: SearchState? {
        if case let .sheet(.search(search)) = self { return search }
        return nil
    }
}
