import CaptureMode
import Foundation

/// A partial overlay over the current tab.
public enum Sheet: Equatable, Sendable {
    /// Every key binding, generated from `KeyMap`; `scrollOffset` is the first line shown.
    case help(scrollOffset: Int)
}

/// A short message that must be acknowledged.
public struct Alert: Equatable, Sendable {
    public var title: String
    public var message: String

    public init(title: String, message: String) {
        self.title = title
        self.message = message
    }

    public static let requestRequired = Alert(
        title: "Choose a request first",
        message: "Capture is limited to Inbox requests (see Settings). Highlight a request and press Enter to capture for it, or Space to choose it."
    )
}

/// What is presented over the tab shell: at most one thing, plus an alert on top of it.
public indirect enum Presentation: Equatable, Sendable {
    case none
    case sheet(Sheet)
    case fullScreenCapture(CaptureState)
    case alert(Alert, over: Presentation)

    /// The capture session, if capture mode is showing (under an alert or not).
    public var capture: CaptureState? {
        switch self {
        case let .fullScreenCapture(capture): capture
        case let .alert(_, over): over.capture
        case .none, .sheet: nil
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
        case .none, .fullScreenCapture: nil
        }
    }
}
