import Domain
import Foundation

/// Settings, written once for both engines: the single row (id 1) of `settings`.
extension StatementStore {
    /// The saved settings, or ``Settings/default`` when none were saved yet.
    public func settings() throws(StorageError) -> Settings {
        try asking { session throws(StorageError) in try SettingsRows.settings(session) }
    }

    /// Saves `settings`, replacing the previous ones.
    public func saveSettings(_ settings: Settings) throws(StorageError) {
        try StorageLimits.validate(settings)
        _ = try writing { session throws(StorageError) in try session.execute(SettingsRows.upsert(settings)) }
    }
}

/// The `settings` row's statements, for the stores and for a copy between them.
public enum SettingsRows {
    /// The saved settings, or ``Settings/default`` when none were saved yet.
    public static func settings(_ session: any StatementSession) throws(StorageError) -> Settings {
        let select: StoreSQL = """
            SELECT snap_back_target, capture_gating, tab_bar_position, color_enabled, auto_advance_milliseconds,
                   allow_free_text_codes, maximum_photos, maximum_photo_bytes, scanner_layout, tab_bar_minimizes,
                   separator_stand_in, photo_previews, theme
            FROM settings WHERE id = 1
            """
        let saved = try session.first(select) { row throws(StorageError) -> Settings? in
            guard let snapBack = try row.text(0).flatMap(SnapBackTarget.init(rawValue:)), let gating = try row.boolean(1),
                let position = try row.text(2).flatMap(TabBarPosition.init(rawValue:)), let color = try row.boolean(3),
                let autoAdvance = try row.integer(4), let freeText = try row.boolean(5), let photos = try row.integer(6),
                let photoBytes = try row.integer(7), let minimizes = try row.boolean(9),
                let previews = try row.text(11).flatMap(PhotoPreviewSetting.init(rawValue:))
            else { throw session.unreadable("settings") }
            var record = SettingsRecord(
                Settings(
                    snapBackTarget: snapBack, captureGating: gating, tabBarPosition: position, colorEnabled: color,
                    autoAdvanceMilliseconds: Int(autoAdvance), allowFreeTextCodes: freeText))
            record.settings.maximumPhotos = Int(photos)
            record.settings.maximumPhotoBytes = photoBytes
            record.scannerLayout = try row.text(8)
            record.tabBarMinimizes = minimizes
            record.separatorStandIn = try row.text(10)
            record.settings.photoPreviews = previews
            record.theme = try row.text(12)
            return record.settings
        }
        return saved ?? .default
    }

    /// Writes `settings` as the row, replacing what was there.
    public static func upsert(_ settings: Settings) -> StoreSQL {
        let record = SettingsRecord(settings)
        let upsert: StoreSQL = """
            INSERT INTO settings (id, snap_back_target, capture_gating, tab_bar_position, color_enabled, auto_advance_milliseconds,
                                  allow_free_text_codes, maximum_photos, maximum_photo_bytes, scanner_layout, tab_bar_minimizes,
                                  separator_stand_in, photo_previews, theme)
            VALUES (1, \(settings.snapBackTarget.rawValue), \(settings.captureGating), \(settings.tabBarPosition.rawValue),
                    \(settings.colorEnabled), \(settings.autoAdvanceMilliseconds), \(settings.allowFreeTextCodes),
                    \(settings.maximumPhotos), \(settings.maximumPhotoBytes), \(record.scannerLayout), \(record.tabBarMinimizes),
                    \(record.separatorStandIn), \(settings.photoPreviews.rawValue), \(record.theme))
            ON CONFLICT (id) DO UPDATE SET
                snap_back_target = excluded.snap_back_target, capture_gating = excluded.capture_gating,
                tab_bar_position = excluded.tab_bar_position, color_enabled = excluded.color_enabled,
                auto_advance_milliseconds = excluded.auto_advance_milliseconds, allow_free_text_codes = excluded.allow_free_text_codes,
                maximum_photos = excluded.maximum_photos, maximum_photo_bytes = excluded.maximum_photo_bytes,
                scanner_layout = excluded.scanner_layout, tab_bar_minimizes = excluded.tab_bar_minimizes,
                separator_stand_in = excluded.separator_stand_in, photo_previews = excluded.photo_previews,
                theme = excluded.theme
            """
        return upsert
    }
}
