import GRDB
import Storage

extension Migrations {
    /// The Inbox pages: its requests are read pending first, then done, newest first
    /// within each, as two walks along `request_on_status_createdAt_id` that stop at a page —
    /// before this, every start sorted the whole request table. `requestCount` keeps the number
    /// of pending requests (the tab's badge) by triggers, so it is one row read, not a count.
    static func inbox(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX request_on_status_createdAt_id ON request(status, createdAt DESC, id DESC);
                CREATE TABLE requestCount (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    pending INTEGER NOT NULL CHECK (pending >= 0)
                );
                INSERT INTO requestCount (id, pending) SELECT 1, COUNT(*) FROM request WHERE status = 'pending';
                CREATE TRIGGER request_counted_on_insert AFTER INSERT ON request WHEN new.status = 'pending' BEGIN
                    UPDATE requestCount SET pending = pending + 1 WHERE id = 1;
                END;
                CREATE TRIGGER request_counted_on_delete AFTER DELETE ON request WHEN old.status = 'pending' BEGIN
                    UPDATE requestCount SET pending = pending - 1 WHERE id = 1;
                END;
                CREATE TRIGGER request_counted_on_update AFTER UPDATE OF status ON request
                WHEN old.status IS NOT new.status BEGIN
                    UPDATE requestCount SET pending = pending + (new.status = 'pending') - (old.status = 'pending') WHERE id = 1;
                END;
                """)
    }
}
