import Domain
import Foundation

// MARK: - State

/// The rows of the Settings tab, top to bottom: the settings, then Clear all.
public enum SettingsRow: Int, CaseIterable, Sendable {
    case snapBackTarget, captureGating, tabBarPosition, tabBarOnScroll, colorEnabled, theme, autoAdvance, freeTextCodes
    case maximumPhotos, maximumPhotoSize
    case photoPreviews
    case scannerLayout, separatorStandIn
    /// Not a setting: asks to delete every History record (after a confirmation).
    case clearHistory

    public var title: String {
        switch self {
        case .snapBackTarget: "After capture, return to"
        case .captureGating: "Require an Inbox request to capture"
        case .tabBarPosition: "Tab bar position"
        case .tabBarOnScroll: "Tab bar while scrolling down"
        case .colorEnabled: "Colour"
        case .theme: "Theme"
        case .autoAdvance: "Auto-advance after a scan"
        case .freeTextCodes: "Accept free-text codes"
        case .maximumPhotos: "Photos per capture, at most"
        case .maximumPhotoSize: "Largest photo file"
        case .scannerLayout: "Scanner layout"
        case .separatorStandIn: "GS1 separator sent as"
        case .photoPreviews: "Photo previews"
        case .clearHistory: "Clear History"
        }
    }

    /// True for rows that change a stored setting.
    public var isSetting: Bool { self != .clearHistory }
}

/// The Settings tab's own state.
public struct SettingsScreenState: Equatable, Sendable {
    public var list = ListPosition()
    /// The setting changed last, while the highlight stays on it: screen-reader mode announces
    /// its new value. A move or a tab switch forgets it.
    public var changedRow: SettingsRow?
}

// MARK: - Actions

/// What happens on the Settings tab.
public enum SettingsAction: Equatable, Sendable {
    case input(FocusInput)
    /// A row's value stepped forward (Enter, Space, a click) or backward.
    case rowCycled(SettingsRow, forward: Bool)
    /// ← or → on the highlighted row: its value stepped backward or forward; nothing on a row
    /// without a value (Clear History).
    case highlightedValueStepped(forward: Bool)

    /// Sent by a key or a click: every Settings action is.
    public var isUserInput: Bool { true }
}

// MARK: - Reducer

extension SettingsScreenState {
    /// The Settings reducer. It changes `settings`, the app's stored settings, which it is
    /// handed; saving them is an effect.
    public mutating func send(_ action: SettingsAction, settings: inout Settings, viewport: Int) -> Outcome {
        let rows = SettingsRow.allCases
        switch action {
        case let .input(.moved(move)):
            list.move(move, count: rows.count, viewport: viewport)
            changedRow = nil
            return .none

        case .input(.activated):
            guard let row = SettingsRow(rawValue: list.cursor) else { return .none }
            return send(.rowCycled(row, forward: true), settings: &settings, viewport: viewport)

        case .input(.clicked), .input(.escape):
            return .none

        case let .highlightedValueStepped(forward):
            guard let row = SettingsRow(rawValue: list.cursor), row.isSetting else { return .none }
            return send(.rowCycled(row, forward: forward), settings: &settings, viewport: viewport)

        case let .rowCycled(row, forward):
            // A row's place in the list is its raw value, as the cursor reads it back above.
            list.cursor = row.rawValue
            list.clamp(count: rows.count, viewport: viewport)
            guard row.isSetting else {
                changedRow = nil
                return .request(.clearHistory)
            }
            settings.cycle(row, forward: forward)
            changedRow = row
            return .effects([.saveSettings(settings)])
        }
    }
}
