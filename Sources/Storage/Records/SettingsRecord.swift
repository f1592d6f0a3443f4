import Domain
import Foundation
import Scanning

/// The single row (id 1) of the `settings` table, the same columns on every engine: the app's
/// `Settings` (one definition of the fields), with the three columns that hold a value in
/// another form than the model — the scanner layout as text, the stand-in checked, the tab bar's
/// column name — spelt out below.
public struct SettingsRecord: Equatable, Sendable {
    public var settings: Settings

    public init(_ settings: Settings) {
        self.settings = settings
    }

    /// `scannerLayout`: `us>azerty` (scanner>computer), or NULL; text naming no layouts reads as none.
    public var scannerLayout: String? {
        get { settings.scannerLayout.map { "\($0.scanner.rawValue)>\($0.computer.rawValue)" } }
        set {
            settings.scannerLayout = nil
            if let parts = newValue?.split(separator: ">"), parts.count == 2,
                let scanner = KeyboardLayout(rawValue: String(parts[0])), let computer = KeyboardLayout(rawValue: String(parts[1]))
            {
                settings.scannerLayout = LayoutTranslation(scanner: scanner, computer: computer)
            }
        }
    }

    /// `separatorStandIn`: Settings › GS1 separator sent as, one character, or NULL (anything
    /// else reads as NULL).
    public var separatorStandIn: String? {
        get { settings.separatorStandIn }
        set { settings.separatorStandIn = newValue.flatMap { $0.count == 1 ? $0 : nil } }
    }

    /// `tabBarMinimizes`: `Settings.tabBarMinimizesOnScroll`.
    public var tabBarMinimizes: Bool {
        get { settings.tabBarMinimizesOnScroll }
        set { settings.tabBarMinimizesOnScroll = newValue }
    }

    /// `theme`: Settings' theme ("high-contrast"), or NULL while config.toml's applies; text
    /// naming no theme reads as NULL.
    public var theme: String? {
        get { settings.theme?.rawValue }
        set { settings.theme = newValue.flatMap(Theme.init(rawValue:)) }
    }
}
