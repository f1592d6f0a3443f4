import CaptureMode
import Foundation
import TabShell

/// The single row (id 1) of the `settings` table, the same columns on every engine.
public struct SettingsRecord: Codable, Equatable, Sendable {
    public var id: Int64 = 1
    public var snapBackTarget: SnapBackTarget
    public var captureGating: Bool
    public var tabBarPosition: TabBarPosition
    public var colorEnabled: Bool
    public var autoAdvanceMilliseconds: Int
    public var allowFreeTextCodes: Bool
    public var maximumPhotos: Int
    public var maximumPhotoBytes: Int64
    /// `us>azerty` (scanner>computer), or NULL.
    public var scannerLayout: String?
    public var tabBarMinimizes: Bool
    /// Settings › GS1 separator sent as: one character, or NULL.
    public var separatorStandIn: String?
    public var photoPreviews: PhotoPreviewSetting

    public init(_ settings: Settings) {
        tabBarMinimizes = settings.tabBarMinimizesOnScroll
        separatorStandIn = settings.separatorStandIn
        scannerLayout = settings.scannerLayout.map { "\($0.scanner.rawValue)>\($0.computer.rawValue)" }
        snapBackTarget = settings.snapBackTarget
        captureGating = settings.captureGating
        tabBarPosition = settings.tabBarPosition
        colorEnabled = settings.colorEnabled
        autoAdvanceMilliseconds = settings.autoAdvanceMilliseconds
        allowFreeTextCodes = settings.allowFreeTextCodes
        maximumPhotos = settings.maximumPhotos
        maximumPhotoBytes = settings.maximumPhotoBytes
        photoPreviews = settings.photoPreviews
    }

    public var settings: Settings {
        var settings = Settings(
            snapBackTarget: snapBackTarget,
            captureGating: captureGating,
            tabBarPosition: tabBarPosition,
            colorEnabled: colorEnabled,
            autoAdvanceMilliseconds: autoAdvanceMilliseconds,
            allowFreeTextCodes: allowFreeTextCodes
        )
        settings.maximumPhotos = maximumPhotos
        settings.maximumPhotoBytes = maximumPhotoBytes
        settings.tabBarMinimizesOnScroll = tabBarMinimizes
        settings.separatorStandIn = separatorStandIn.flatMap { $0.count == 1 ? $0 : nil }
        if let parts = scannerLayout?.split(separator: ">"), parts.count == 2,
            let scanner = KeyboardLayout(rawValue: String(parts[0])), let computer = KeyboardLayout(rawValue: String(parts[1]))
        {
            settings.scannerLayout = LayoutTranslation(scanner: scanner, computer: computer)
        }
        settings.photoPreviews = photoPreviews
        return settings
    }
}
