import Domain
import Foundation

/// The tab bar, left to right. Adding a tab: add a case here with its title, short title, key
/// and role, give it per-tab state in `AppState`, and a screen in Render (see docs/architecture.md).
public enum Tab: Int, CaseIterable, Codable, Sendable, Hashable {
    case inbox
    case create
    case history
    case settings

    public enum Role: Sendable, Equatable {
        /// A tab that can be selected and shows a screen.
        case content
        /// A tab that performs an action when chosen and is never selected.
        case action
    }

    public var title: String {
        switch self {
        case .inbox: "Inbox"
        case .create: "+ Create"
        case .history: "History"
        case .settings: "Settings"
        }
    }

    public var shortTitle: String {
        switch self {
        case .inbox: "In"
        case .create: "+"
        case .history: "Hist"
        case .settings: "Set"
        }
    }

    /// The digit that jumps to this tab: its place in the bar, counted from 1.
    public var key: Character { Character(String(rawValue + 1)) }

    /// The content tab this is, or nil for the action tab.
    public var content: ContentTab? { ContentTab.allCases.first { $0.tab == self } }

    public var role: Role { content == nil ? .action : .content }
}

/// A tab that can be selected and shows a screen: every tab of the bar but the action tab.
/// `AppState.selectedTab` is one, so the action tab cannot be selected.
public enum ContentTab: Int, CaseIterable, Codable, Sendable, Hashable {
    case inbox
    case history
    case settings

    /// Its place in the tab bar.
    public var tab: Tab {
        switch self {
        case .inbox: .inbox
        case .history: .history
        case .settings: .settings
        }
    }
}
