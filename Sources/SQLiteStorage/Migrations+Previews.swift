import GRDB
import Storage

extension Migrations {
    /// The photo-preview setting: `settings.photoPreviews`, automatic, blocks or off.
    static func v6(_ db: Database) throws {
        try db.alter(table: "settings") { t in
            t.add(column: "photoPreviews", .text).notNull().defaults(to: "automatic")
                .check(sql: "photoPreviews IN ('automatic','blocks','off')")
        }
    }
}
