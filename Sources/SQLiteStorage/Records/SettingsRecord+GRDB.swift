import GRDB
import Storage

// Storage's row type, read and written by GRDB here.
extension SettingsRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "settings"
}
