import Domain
import Foundation
import Scanning

/// The single row (id 1) of the `settings` table, the same columns on every engine: the app's
/// `Settings` (one definition of the fields), with the three columns that hold a value in
/// another form than the model — the scanner layout as text, the stand-in checked, the tab bar's
/// column name — spelt out below.
public struct SettingsRecord: Codable, Equatable, Sendable {
    public var id: Int64 = 1
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

    /// The columns, by name.
    enum CodingKeys: String, CodingKey {
        case id, snapBackTarget, captureGating, tabBarPosition, colorEnabled, autoAdvanceMilliseconds, allowFreeTextCodes
        case maximumPhotos, maximumPhotoBytes, scannerLayout, tabBarMinimizes, separatorStandIn, photoPreviews, theme
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        id = try row.decode(Int64.self, forKey: .id)
        settings = Settings(
            snapBackTarget: try row.decode(SnapBackTarget.self, forKey: .snapBackTarget),
            captureGating: try row.decode(Bool.self, forKey: .captureGating),
            tabBarPosition: try row.decode(TabBarPosition.self, forKey: .tabBarPosition),
            colorEnabled: try row.decode(Bool.self, forKey: .colorEnabled),
            autoAdvanceMilliseconds: try row.decode(Int.self, forKey: .autoAdvanceMilliseconds),
            allowFreeTextCodes: try row.decode(Bool.self, forKey: .allowFreeTextCodes))
        settings.maximumPhotos = try row.decode(Int.self, forKey: .maximumPhotos)
        settings.maximumPhotoBytes = try row.decode(Int64.self, forKey: .maximumPhotoBytes)
        scannerLayout = try row.decodeIfPresent(String.self, forKey: .scannerLayout)
        tabBarMinimizes = try row.decode(Bool.self, forKey: .tabBarMinimizes)
        separatorStandIn = try row.decodeIfPresent(String.self, forKey: .separatorStandIn)
        settings.photoPreviews = try row.decode(PhotoPreviewSetting.self, forKey: .photoPreviews)
        theme = try row.decodeIfPresent(String.self, forKey: .theme)
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(id, forKey: .id)
        try row.encode(settings.snapBackTarget, forKey: .snapBackTarget)
        try row.encode(settings.captureGating, forKey: .captureGating)
        try row.encode(settings.tabBarPosition, forKey: .tabBarPosition)
        try row.encode(settings.colorEnabled, forKey: .colorEnabled)
        try row.encode(settings.autoAdvanceMilliseconds, forKey: .autoAdvanceMilliseconds)
        try row.encode(settings.allowFreeTextCodes, forKey: .allowFreeTextCodes)
        try row.encode(settings.maximumPhotos, forKey: .maximumPhotos)
        try row.encode(settings.maximumPhotoBytes, forKey: .maximumPhotoBytes)
        try row.encodeIfPresent(scannerLayout, forKey: .scannerLayout)
        try row.encode(tabBarMinimizes, forKey: .tabBarMinimizes)
        try row.encodeIfPresent(separatorStandIn, forKey: .separatorStandIn)
        try row.encode(settings.photoPreviews, forKey: .photoPreviews)
        try row.encodeIfPresent(theme, forKey: .theme)
    }
}
