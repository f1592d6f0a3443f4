import GRDB
import Storage

extension Migrations {
    /// Every record and request gets an identity that export writes and import recognises
    /// (`uid`, a random UUID), so importing the same history twice adds nothing. Existing rows
    /// get one here; a row inserted without one (Done and `inbox add` give theirs) gets one from
    /// the triggers, so no row is ever without.
    static func uids(_ db: Database) throws {
        // sql-fragment: a version 4 UUID from randomblob, evaluated once per row
        let newUID = """
            lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
                || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
            """
        try db.execute(
            sql: """
                ALTER TABLE request ADD COLUMN uid TEXT;
                UPDATE request SET uid = \(newUID);
                CREATE UNIQUE INDEX request_on_uid ON request(uid);
                CREATE TRIGGER request_identified_on_insert AFTER INSERT ON request WHEN new.uid IS NULL BEGIN
                    UPDATE request SET uid = \(newUID) WHERE id = new.id;
                END;
                ALTER TABLE capture ADD COLUMN uid TEXT;
                UPDATE capture SET uid = \(newUID);
                CREATE UNIQUE INDEX capture_on_uid ON capture(uid);
                CREATE TRIGGER capture_identified_on_insert AFTER INSERT ON capture WHEN new.uid IS NULL BEGIN
                    UPDATE capture SET uid = \(newUID) WHERE id = new.id;
                END;
                """)
    }
}
