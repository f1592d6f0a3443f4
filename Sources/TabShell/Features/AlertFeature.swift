import CaptureMode
import Domain
import Foundation
import Scanning

// MARK: - State

/// What an alert's button does when pressed.
public enum AlertAction: Codable, Equatable, Sendable {
    /// Close the alert and do nothing else (OK, Cancel).
    case dismiss
    /// Delete this History record and its photos.
    case deleteRecord(Int64)
    /// Delete every History record and their photos.
    case deleteAllRecords
    /// Delete this Inbox request (its answers stay in History).
    case removeRequest(Int64)
    /// Reopen the unfinished capture with this staging id.
    case resumeDraft(String)
    /// Delete the unfinished capture with this staging id.
    case discardDraft(String)
    /// Throw away what the capture on screen holds and close it (capture's own question, whose
    /// buttons go to the capture reducer).
    case discardCapture

    /// Whether pressing it loses something that cannot be had back: such a button is never
    /// what Enter presses.
    public var isDestructive: Bool {
        switch self {
        case .dismiss, .resumeDraft: false
        case .deleteRecord, .deleteAllRecords, .removeRequest, .discardDraft, .discardCapture: true
        }
    }
}

/// One button of an alert: its label, the letter that presses it, and what it does.
public struct AlertButton: Codable, Equatable, Sendable {
    public var title: String
    /// The letter that presses the button, shown on it ("Delete (y)").
    public var key: Character?
    public var action: AlertAction

    private enum CodingKeys: String, CodingKey { case title, key, action }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        key = try container.decodeIfPresent(String.self, forKey: .key).flatMap { $0.count == 1 ? $0.first : nil }
        action = try container.decode(AlertAction.self, forKey: .action)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(key.map(String.init), forKey: .key)
        try container.encode(action, forKey: .action)
    }

    public init(_ title: String, key: Character? = nil, action: AlertAction = .dismiss) {
        self.title = title
        self.key = key
        self.action = action
    }

    public static let ok = AlertButton("OK")
}

/// A message that must be acknowledged, or a question with buttons. Enter presses the default
/// button, never a destructive one; Esc cancels (closes the alert and does nothing); a button's
/// letter presses it.
public struct Alert: Codable, Equatable, Sendable {
    public var title: String
    public var message: String
    public var buttons: [AlertButton]
    /// The index in `buttons` of the button Enter presses.
    public var defaultButton: Int

    public init(title: String, message: String, buttons: [AlertButton] = [.ok], defaultButton: Int = 0) {
        self.title = title
        self.message = message
        self.buttons = buttons.isEmpty ? [.ok] : buttons
        self.defaultButton = Self.safeDefault(defaultButton, of: self.buttons)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decode(String.self, forKey: .title), message: try container.decode(String.self, forKey: .message),
            buttons: try container.decode([AlertButton].self, forKey: .buttons), defaultButton: try container.decode(Int.self, forKey: .defaultButton))
    }

    private enum CodingKeys: String, CodingKey { case title, message, buttons, defaultButton }

    /// The button Enter presses: the one asked for when it is safe, else the first that
    /// destroys nothing (Cancel, Keep editing), so a hurried Enter never deletes.
    static func safeDefault(_ wanted: Int, of buttons: [AlertButton]) -> Int {
        let wanted = min(max(0, wanted), max(0, buttons.count - 1))
        guard buttons.indices.contains(wanted), buttons[wanted].action.isDestructive else { return wanted }
        return buttons.firstIndex { !$0.action.isDestructive } ?? wanted
    }

    /// True when the alert asks a question (more than one button) rather than telling something.
    public var isConfirmation: Bool { buttons.count > 1 }

    public static let requestRequired = requestRequired(captureKey: "Enter", chooseKey: "Space")

    /// Capture is limited to requests: the keys that capture for the highlighted request and
    /// choose it are named as they are bound (nil: no key does it, and it is not offered).
    public static func requestRequired(captureKey: String?, chooseKey: String?) -> Alert {
        let how: String =
            switch (captureKey, chooseKey) {
            case let (capture?, choose?): "Highlight a request and press \(capture) to capture for it, or \(choose) to choose it."
            case let (capture?, nil): "Highlight a request and press \(capture) to capture for it."
            case let (nil, choose?): "Highlight a request and press \(choose) to choose it."
            case (nil, nil): "Choose a request in the Inbox to capture for it."
            }
        return Alert(title: "Choose a request first", message: "Capture is limited to Inbox requests (see Settings). " + how)
    }

    /// Capture is limited to requests and the Inbox has no pending one to highlight.
    public static let noRequestToCapture = Alert(
        title: "No request to capture for",
        message:
            "Capture is limited to Inbox requests (see Settings), and none is pending. Add one from a shell: tabshell inbox add --title \"Scan the pallet\". Or turn the setting off."
    )

    /// Asked when Close (Esc, or a first Ctrl-C) would throw away what the capture holds (a
    /// code, a note, typed text, photos): Keep editing is the default (Enter, `n`, Esc),
    /// Discard is `y`. The same question for every kind of work.
    public static func confirmCaptureClose(_ capture: CaptureState) -> Alert {
        let work = capture.collectedWork
        return Alert(
            title: "Discard this capture?",
            message: "Close throws away \(work.isEmpty ? "what you entered" : work.listed()). Nothing is saved.",
            buttons: [AlertButton("Keep editing", key: "n"), AlertButton("Discard", key: "y", action: .discardCapture)],
            defaultButton: 0
        )
    }

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
        let request = record.requestTitle.map { " " + requestSentence(title: $0, after: record.requestAfterDeletion) } ?? ""
        return Alert(
            title: "Delete record #\(record.id)?",
            message: "\(summary)\(photos) will be deleted. This cannot be undone.\(request)",
            buttons: [AlertButton("Delete", key: "y", action: .deleteRecord(record.id)), AlertButton("Cancel", key: "n")],
            defaultButton: 1
        )
    }

    /// What becomes of the request a deleted record answered, as the store said when it read the
    /// record; without its word, both outcomes.
    private static func requestSentence(title: String, after deletion: RequestAfterDeletion?) -> String {
        switch deletion {
        case .pendingAgain?: "The request \"\(title)\" it answered becomes pending again."
        case .answeredByAnother?: "The request \"\(title)\" it answered stays done: another record answers it too."
        case .pendingAlready?: "The request \"\(title)\" it answered stays pending."
        case nil: "The request \"\(title)\" it answered becomes pending again unless another record answers it too."
        }
    }

    /// Asked before an Inbox request is deleted. Enter cancels.
    public static func confirmRemoval(of request: InboxRequest) -> Alert {
        Alert(
            title: "Remove request #\(request.id)?",
            message: "\"\(request.title)\" will be deleted from the Inbox. Records that answered it stay in History. "
                + "This cannot be undone.",
            buttons: [AlertButton("Remove", key: "y", action: .removeRequest(request.id)), AlertButton("Cancel", key: "n")],
            defaultButton: 1
        )
    }

    /// Asked before Clear all. Enter cancels: deleting everything takes a deliberate `y`.
    public static func confirmClearAll(count: Int) -> Alert {
        let records = count == 1 ? "the only record and its photos" : "all \(Count.grouped(count)) records and their photos"
        return Alert(
            title: "Clear History?",
            message: "Delete \(records)? Inbox requests are kept; those they answered become pending again. This cannot be undone.",
            buttons: [AlertButton("Delete all", key: "y", action: .deleteAllRecords), AlertButton("Cancel", key: "n")],
            defaultButton: 1
        )
    }
}

// MARK: - The questions the app asks

extension Alert {
    /// One of each question the shell asks, so help can list every button's letter (and a test
    /// can check that none defaults to destroying something). Capture's own question,
    /// `confirmCaptureClose`, has its own keys.
    public static var questions: [Alert] {
        let sample = HistoryRow(id: 1, kind: .barcode, barcode: nil, note: nil, requestID: nil, requestTitle: nil, createdAt: Date(timeIntervalSince1970: 0))
        return [
            .confirmDeletion(of: sample, photoCount: nil),
            .confirmClearAll(count: 2),
            .confirmRemoval(of: InboxRequest(id: 1, title: "", body: "", kind: .barcode, status: .pending, createdAt: Date(timeIntervalSince1970: 0))),
            DraftOffer(id: "", summary: "", capture: CaptureState()).alert,
        ]
    }

    /// Every button letter of every question: the letter, the button's index (the same in every
    /// question that has it) and the buttons' titles.
    static var questionButtons: [(key: Character, index: Int, titles: [String])] {
        var found: [(key: Character, index: Int, titles: [String])] = []
        for question in questions {
            for (index, button) in question.buttons.enumerated() {
                guard let key = button.key else { continue }
                if let at = found.firstIndex(where: { $0.key == key }) {
                    if !found[at].titles.contains(button.title) { found[at].titles.append(button.title) }
                } else {
                    found.append((key, index, [button.title]))
                }
            }
        }
        return found
    }
}

// MARK: - Reducer

extension Alert {
    /// What pressing button `index` does, as effects; the alert closes either way.
    public func effects(ofButton index: Int) -> [AppEffect] {
        guard buttons.indices.contains(index) else { return [] }
        switch buttons[index].action {
        case .dismiss: return []
        case let .deleteRecord(id): return [.deleteRecord(id)]
        case .deleteAllRecords: return [.deleteAllRecords]
        case let .removeRequest(id): return [.removeRequest(id)]
        case let .resumeDraft(id): return [.resumeDraft(id)]
        case let .discardDraft(id): return [.discardDraft(id)]
        // Capture's own question: its view sends its buttons to the capture reducer.
        case .discardCapture: return []
        }
    }
}
