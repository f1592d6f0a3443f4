import CaptureMode
import Foundation
import GRDB
import TabShell

/// The single row (id 1) of the `settings` table.
struct SettingsRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "settings"

    var id: Int64 = 1
    var snapBackTarget: SnapBackTarget
    var captureGating: Bool
    var tabBarPosition: TabBarPosition
    var colorEnabled: Bool
    var autoAdvanceMilliseconds: Int
    var allowFreeTextCodes: Bool
    var maximumPhotos: Int
    var maximumPhotoBytes: Int64
    /// `us>azerty` (scanner>computer), or NULL.
    var scannerLayout: String?
    var tabBarMinimizes: Bool
    /// Settings › GS1 separator sent as: one character, or NULL.
    var separatorStandIn: String?
    var photoPreviews: PhotoPreviewSetting

    init(_ settings: Settings) {
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

    var settings: Settings {
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
