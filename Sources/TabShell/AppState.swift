import CaptureMode
import Foundation

/// The whole navigation state of the tab shell: a plain value the front end renders from.
public struct AppState: Equatable, Sendable {
    /// Always a content tab: the action tab is never selected.
    public var selectedTab: Tab = .inbox
    public var presentation: Presentation = .none
    public var inbox = InboxState()
    public var history = HistoryState()
    public var settingsScreen = SettingsScreenState()
    public var settings: Settings
    public var size: ScreenSize
    /// Where the data lives, shown in Settings.
    public var databaseLocation: String
    /// A one-line message in the hint line until the next key ("Saved …", an error).
    public var status: StatusMessage?
    public var isQuitting = false
    /// Unfinished captures found at start-up, offered one at a time.
    public var pendingDrafts: [DraftOffer] = []
    /// What start-up recovery did (swept folders, quarantined files), shown in Settings.
    public var recoverySummary: String?
    /// What the search sheet held when it last closed; `/` opens it with this query again.
    public var lastSearchQuery = ""

    public init(settings: Settings = .default, size: ScreenSize = ScreenSize(rows: 24, columns: 80), databaseLocation: String = "") {
        self.settings = settings
        self.size = size
        self.databaseLocation = databaseLocation
    }

    public var layout: Layout { Layout(size: size) }

    /// Where the selection goes when capture closes.
    public var snapBackTarget: Tab {
        settings.snapBackTarget == .history ? .history : selectedTab
    }
}

/// A transient line in the status area.
public struct StatusMessage: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case info, success, error }
    public var text: String
    public var kind: Kind

    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }
}
