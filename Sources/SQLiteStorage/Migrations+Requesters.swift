import GRDB
import Storage

extension Migrations {
    /// Who asked (seed 003's agents): `request.requester` is the name a request came
    /// from (`inbox add --from chef`, `from` in an import), NULL when nobody was named.
    ///
    /// `capture.requester` keeps the requester of the request a capture answers, written by a
    /// trigger when the capture is inserted (so every way of inserting one — a Done, demo and
    /// benchmark data — agrees) and filled here for the captures already stored. History's
    /// "By requester" walks `capture_on_requester_createdAt_id` group by group, as "By request"
    /// walks its own index: a keyset read that never sorts the table.
    static func requesters(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE request ADD COLUMN requester TEXT
                    CHECK (requester IS NULL OR (length(requester) BETWEEN 1 AND 64));
                ALTER TABLE capture ADD COLUMN requester TEXT
                    CHECK (requester IS NULL OR (length(requester) BETWEEN 1 AND 64));
                CREATE INDEX capture_on_requester_createdAt_id ON capture(requester, createdAt DESC, id DESC);
                CREATE TRIGGER capture_requester_on_insert AFTER INSERT ON capture
                WHEN new.requestId IS NOT NULL BEGIN
                    UPDATE capture SET requester = (SELECT requester FROM request WHERE id = new.requestId)
                    WHERE id = new.id;
                END;
                """)
    }
}
