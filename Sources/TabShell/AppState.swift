import CaptureMode
import Domain
import Foundation

/// The whole navigation state of the tab shell: a plain value the front end renders from.
public struct AppState: Equatable, Sendable {
    /// The tab whose screen shows: a content tab, so never the action tab.
    public var selectedTab: ContentTab = .inbox
    public var presentation: Presentation = .none
    public var inbox = InboxState()
    public var history = HistoryState()
    public var settingsScreen = SettingsScreenState()
    public var settings: Settings
    public var size: ScreenSize
    /// What the environment asks of the display (NO_COLOR).
    public var environment: DisplayEnvironment
    /// Where the data lives, shown in Settings.
    public var databaseLocation: String
    /// A one-line message in the hint line until the next key ("Saved …", an error).
    public var status: StatusMessage?
    /// Whether the store answers; the heading says so on every screen when it does not.
    public var storeReach = StoreReach.answering
    /// Counts the timers handed out for success messages, so an old timer cannot clear a newer one.
    public var statusToken = 0
    /// config.toml's `[keys]`: the keys in place of the table's defaults.
    public var keyOverrides = KeyOverrides.none
    /// Notes waiting for the status line (config.toml's problems): each shows once,
    /// the next when the one before has gone.
    public var pendingNotices: [String] = []
    public var isQuitting = false
    /// Unfinished captures found at start-up, offered one at a time.
    public var drafts = DraftsState()
    /// The capture's draft as last handed to `.saveDraft`, so it is written only when it changes.
    public var savedDraft: CaptureDraft?
    /// Scrolling down a list minimized the tab bar to one compact line (seed 004's
    /// `.tabBarMinimizeBehavior(.onScrollDown)`); scrolling up, the top, or a tab key restores it.
    public var isTabBarMinimized = false
    /// What start-up recovery did (swept folders, quarantined files), shown in Settings.
    public var recoverySummary: String?
    /// What the search sheet held when it last closed.
    public var lastSearch = SearchMemory()
    /// Under `tabshell serve`: the photo field takes only names from the person's uploads.
    public var photosFromUploads = false
    /// What this terminal can show of photos; nil (no terminal, as in tests) shows none.
    public var previewTerminal: PreviewTerminal?
    /// The photo previews asked for and held.
    public var previews = PreviewsState()

    public init(
        settings: Settings = .default, size: ScreenSize = ScreenSize(rows: 24, columns: 80),
        databaseLocation: String = "", environment: DisplayEnvironment = DisplayEnvironment()
    ) {
        self.settings = settings
        self.size = size
        self.databaseLocation = databaseLocation
        self.environment = environment
    }

    public var layout: Layout {
        Layout(size: size, compactTabBar: isTabBarMinimized, thumbnail: previewStyle.map { _ in PreviewBoxes.thumbnail(for: size) })
    }

    /// What a capture started now takes from Settings (and from how the session runs).
    public var captureConfig: CaptureConfig {
        var config = settings.captureConfig
        config.photosFromUploads = photosFromUploads
        config.keyNames = KeyMap.captureKeyNames(overrides: keyOverrides)
        return config
    }

    /// How photos are drawn now, or nil when previews are off (Settings, or no terminal).
    public var previewStyle: PreviewStyle? {
        previewTerminal?.style(for: settings.photoPreviews, usesColor: usesColor)
    }

    /// Where the selection goes when capture closes.
    public var snapBackTarget: ContentTab {
        settings.snapBackTarget == .history ? .history : selectedTab
    }

    /// Whether the screen is drawn in colour: Settings allow it and NO_COLOR does not forbid it.
    /// (A terminal without colours draws monochrome whatever this says.)
    public var usesColor: Bool { settings.colorEnabled && !environment.noColor }
}

/// Whether the session's store answers.
public enum StoreReach: Equatable, Sendable {
    case answering
    /// The store is still opening (a server slow to answer at start), under this name: the
    /// heading says "Connecting to …" until it answers.
    case connecting(String)
    /// Why the database server cannot be reached, from the moment that is known until it is
    /// back: the heading says so on every screen, so nothing shown passes for current meanwhile.
    case unreachable(String)

    /// The sentence of `.unreachable`, else nil.
    public var problem: String? {
        if case let .unreachable(sentence) = self { return sentence }
        return nil
    }
}

/// What the search sheet held when it last closed: `/` opens it with this query again, showing
/// these results until the query answers again.
public struct SearchMemory: Equatable, Sendable {
    public var query = ""
    public var results: [HistoryRow] = []
    /// The query `results` answer.
    public var resultsQuery: String?
}

/// What the process environment asks of the display.
public struct DisplayEnvironment: Equatable, Sendable {
    /// `NO_COLOR` is set to a non-empty value (no-color.org): never colour.
    public var noColor: Bool
    /// config.toml's `theme` (auto when the file does not say); a choice in Settings wins.
    public var theme: Theme = .auto
    /// Said after "Copied …" when the copy may not reach the clipboard (inside tmux without
    /// `set-clipboard on`); nil when nothing stands in the way that we know of.
    public var clipboardNote: String?
    /// Presenting or watching: "watch 4821 · 3 watching", shown in the heading on
    /// every tab (Settings too) beside the tab's own context.
    public var presenting: String?
    /// This screen is a watcher's (`tabshell watch`): the hint line shows the watcher's own keys
    /// (``WatcherKey``), and photos, which a watcher is not sent, say so.
    public var isWatching = false

    public init(noColor: Bool = false) {
        self.noColor = noColor
    }

    /// Read from an environment such as `ProcessInfo.processInfo.environment`.
    public init(_ variables: [String: String]) {
        noColor = !(variables["NO_COLOR"] ?? "").isEmpty
    }
}

/// A transient line in the status area.
public struct StatusMessage: Equatable, Sendable {
    /// Also how a watcher is sent it (`PresentedScreen.StatusKind`), by these names.
    public enum Kind: String, Codable, Equatable, Sendable { case info, success, error }
    /// How long a success message stays before the key hints come back; errors and notes stay
    /// until the next key.
    public static let successMilliseconds = 4000
    public var text: String
    public var kind: Kind

    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }
}
