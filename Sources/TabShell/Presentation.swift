import CaptureMode
import Foundation

/// A partial overlay over the current tab; the tab bar stays visible and clickable around it.
public enum Sheet: Equatable, Sendable {
    /// Every key binding, generated from `KeyMap`; `scrollOffset` is the first line shown.
    case help(scrollOffset: Int)
    /// Search History (seed 004's search role): the query, its results and the highlighted one.
    case search(SearchState)
}

/// What an alert's button does when pressed.
public enum AlertAction: Equatable, Sendable {
    /// Close the alert and do nothing else (OK, Cancel).
    case dismiss
    /// Delete this History record and its photos.
    case deleteRecord(Int64)
    /// Delete every History record and their photos.
    case deleteAllRecords
    /// Reopen the unfinished capture with this staging id.
    case resumeDraft(String)
    /// Delete the unfinished capture with this staging id.
    case discardDraft(String)
}

/// One button of an alert: its label, the letter that presses it, and what it does.
public struct AlertButton: Equatable, Sendable {
    public var title: String
    /// The letter that presses the button, shown on it ("Delete (y)").
    public var key: Character?
    public var action: AlertAction

    public init(_ title: String, key: Character? = nil, action: AlertAction = .dismiss) {
        self.title = title
        self.key = key
        self.action = action
    }

    public static let ok = AlertButton("OK")
}

/// A message that must be acknowledged, or a question with buttons. Enter presses the default
/// button; Esc cancels (closes the alert and does nothing); a button's letter presses it.
public struct Alert: Equatable, Sendable {
    public var title: String
    public var message: String
    public var buttons: [AlertButton]
    /// The index in `buttons` of the button Enter presses.
    public var defaultButton: Int

    public init(title: String, message: String, buttons: [AlertButton] = [.ok], defaultButton: Int = 0) {
        self.title = title
        self.message = message
        self.buttons = buttons.isEmpty ? [.ok] : buttons
        self.defaultButton = min(max(0, defaultButton), max(0, self.buttons.count - 1))
    }

    /// True when the alert asks a question (more than one button) rather than telling something.
    public var isConfirmation: Bool { buttons.count > 1 }

    /// The index of the button `key` presses, if any.
    public func buttonIndex(for key: Character) -> Int? {
        buttons.firstIndex { $0.key == key }
    }

    public static let requestRequired = Alert(
        title: "Choose a request first",
        message: "Capture is limited to Inbox requests (see Settings). Highlight a request and press Enter to capture for it, or Space to choose it."
    )

    /// Asked before deleting one record; `photoCount` is nil when the photos are not known yet.
    public static func confirmDeletion(of record: HistoryRow, photoCount: Int?) -> Alert {
        // Plain quotes: the message must read the same on a terminal without Unicode.
        let summary = record.summary.isEmpty ? "This \(record.kind.title.lowercased())" : "\"\(record.summary)\""
        let photos: String
        switch photoCount {
        case 0?: photos = ""
        case 1?: photos = " and its photo"
        case let count?: photos = " and its \(count) photos"
        case nil: photos = " and its photos"
        }
        return Alert(
            title: "Delete record #\(record.id)?",
            message: "\(summary)\(photos) will be deleted. This cannot be undone.",
            buttons: [AlertButton("Delete", key: "y", action: .deleteRecord(record.id)), AlertButton("Cancel", key: "n")],
            defaultButton: 0
        )
    }

    /// Asked before Clear all. Enter cancels here: deleting everything takes a deliberate `y`.
    public static func confirmClearAll(count: Int) -> Alert {
        let records = count == 1 ? "the only record and its photos" : "all \(groupedDigits(count)) records and their photos"
        return Alert(
            title: "Clear History?",
            message: "Delete \(records)? Inbox requests are kept. This cannot be undone.",
            buttons: [AlertButton("Delete all", key: "y", action: .deleteAllRecords), AlertButton("Cancel", key: "n")],
            defaultButton: 1
        )
    }
}

/// 1234567 -> "1,234,567", independent of the locale.
func groupedDigits(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return number < 0 ? "-" + out : out
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

    /// The search sheet, if it is showing and nothing is over it.
    public var search: SearchState? {
        if case let .sheet(.search(search)) = self { return search }
        return nil
    }
}
