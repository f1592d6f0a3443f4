import GRDB
import Storage

extension Migrations {
    /// Who made what: `capture.capturedBy` and `request.createdBy` (NULL for rows written before
    /// tabshell knew; the name of the Unix user, or of the person `tabshell serve` or `--as`
    /// says). Search finds records by it, so the full-text index is rebuilt with a fourth
    /// column (an FTS5 table cannot gain one); its triggers are recreated to fill it.
    ///
    /// `capture_on_capturedBy` makes "is more than one person in the data" two index lookups
    /// (`MIN`/`MAX`), which History asks with every page.
    static func identities(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE capture ADD COLUMN capturedBy TEXT
                    CHECK (capturedBy IS NULL OR (length(capturedBy) BETWEEN 1 AND 64));
                ALTER TABLE request ADD COLUMN createdBy TEXT
                    CHECK (createdBy IS NULL OR (length(createdBy) BETWEEN 1 AND 64));
                CREATE INDEX capture_on_capturedBy ON capture(capturedBy);

                DROP TRIGGER capture_searchable_on_insert;
                DROP TRIGGER capture_searchable_on_delete;
                DROP TRIGGER capture_searchable_on_update;
                DROP TRIGGER request_title_searchable_on_update;
                DROP TABLE captureSearch;

                CREATE VIRTUAL TABLE captureSearch USING fts5(
                    barcode, note, requestTitle, capturedBy,
                    tokenize = 'unicode61 remove_diacritics 2',
                    prefix = '1 2 3'
                );
                INSERT INTO captureSearch (rowid, barcode, note, requestTitle, capturedBy)
                    SELECT capture.id, capture.barcode, capture.note, request.title, capture.capturedBy
                    FROM capture LEFT JOIN request ON request.id = capture.requestId;
                CREATE TRIGGER capture_searchable_on_insert AFTER INSERT ON capture BEGIN
                    INSERT INTO captureSearch (rowid, barcode, note, requestTitle, capturedBy)
                    VALUES (new.id, new.barcode, new.note, (SELECT title FROM request WHERE id = new.requestId), new.capturedBy);
                END;
                CREATE TRIGGER capture_searchable_on_delete AFTER DELETE ON capture BEGIN
                    DELETE FROM captureSearch WHERE rowid = old.id;
                END;
                CREATE TRIGGER capture_searchable_on_update AFTER UPDATE OF barcode, note, requestId, capturedBy ON capture BEGIN
                    UPDATE captureSearch
                    SET barcode = new.barcode, note = new.note,
                        requestTitle = (SELECT title FROM request WHERE id = new.requestId),
                        capturedBy = new.capturedBy
                    WHERE rowid = new.id;
                END;
                CREATE TRIGGER request_title_searchable_on_update AFTER UPDATE OF title ON request BEGIN
                    UPDATE captureSearch SET requestTitle = new.title
                    WHERE rowid IN (SELECT id FROM capture WHERE requestId = new.id);
                END;
                """)
    }
}
