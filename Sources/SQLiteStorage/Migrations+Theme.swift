import GRDB
import Storage

extension Migrations {
    /// The colour theme chosen in Settings: `settings.theme`, NULL while Settings has
    /// chosen none (config.toml's theme then applies).
    static func theme(_ db: Database) throws {
        try db.alter(table: "settings") { t in
            t.add(column: "theme", .text)
                .check(sql: "theme IS NULL OR theme IN ('auto','dark','light','high-contrast')")
        }
    }
}
