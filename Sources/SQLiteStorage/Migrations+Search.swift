import GRDB
import Storage

extension AppDatabase {
    /// `tabshell_search_text(text)`: ``SearchText/spaced(_:)``, what the search index stores of a
    /// record's text (each character of a script written without spaces as a word of its own);
    /// NULL stays NULL, a value that is not text comes back as it is.
    ///
    /// The search index's triggers call it, so every connection that writes records must have it:
    /// ``open(at:busyTimeout:connections:)`` adds it to theirs. Another program's
    /// connection (the sqlite3 shell) cannot add or change a record ("no such function"), which
    /// keeps the index from going stale behind tabshell's back; reading needs nothing.
    public static let searchTextFunction = DatabaseFunction("tabshell_search_text", argumentCount: 1, pure: true) { values in
        guard case let .string(text) = values[0].storage else { return values[0] }
        return SearchText.spaced(text)
    }

    /// Adds the functions the schema's triggers call (``searchTextFunction``) to `db`.
    public static func addSchemaFunctions(_ db: Database) {
        db.add(function: searchTextFunction)
    }
}

extension Migrations {
    /// Search finds what was captured: every line code of a batch, and any part of a run of a
    /// script written without spaces (`市場` and `京の` in "東京の市場"), as PostgreSQL's `v4`.
    ///
    /// - `captureSearchText` (a view) is a record's searchable text, in one place: its code,
    ///   note, request title, person, product name and brand and its batch's line codes in scan
    ///   order, through `tabshell_search_text` (``SearchText/spaced(_:)``). The order is
    ///   PostgreSQL's `search_vector`'s, so a phrase that runs from one field into the next is
    ///   found on both engines alike.
    /// - `captureSearch` is rebuilt with that text as its one column (an FTS5 table cannot change
    ///   its columns), filled from every record, and kept by the triggers on `capture` and
    ///   `request` as before, and by new ones on `captureLine`: a line added, removed or changed
    ///   indexes its record's text again.
    static func search(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TRIGGER capture_searchable_on_insert;
                DROP TRIGGER capture_searchable_on_delete;
                DROP TRIGGER capture_searchable_on_update;
                DROP TRIGGER request_title_searchable_on_update;
                DROP TABLE captureSearch;

                CREATE VIEW captureSearchText (id, text) AS
                    SELECT capture.id, tabshell_search_text(
                        coalesce(capture.barcode, '') || ' ' || coalesce(capture.note, '') || ' ' || coalesce(request.title, '')
                        || ' ' || coalesce(capture.capturedBy, '') || ' ' || coalesce(capture.productName, '')
                        || ' ' || coalesce(capture.productBrand, '') || ' '
                        || coalesce((SELECT group_concat(captureLine.barcode, ' ') FROM captureLine WHERE captureLine.captureId = capture.id), ''))
                    FROM capture LEFT JOIN request ON request.id = capture.requestId;

                CREATE VIRTUAL TABLE captureSearch USING fts5(
                    text,
                    tokenize = 'unicode61 remove_diacritics 2',
                    prefix = '1 2 3'
                );
                INSERT INTO captureSearch (rowid, text) SELECT id, text FROM captureSearchText;

                CREATE TRIGGER capture_searchable_on_insert AFTER INSERT ON capture BEGIN
                    INSERT INTO captureSearch (rowid, text) SELECT id, text FROM captureSearchText WHERE id = new.id;
                END;
                CREATE TRIGGER capture_searchable_on_delete AFTER DELETE ON capture BEGIN
                    DELETE FROM captureSearch WHERE rowid = old.id;
                END;
                CREATE TRIGGER capture_searchable_on_update
                AFTER UPDATE OF barcode, note, requestId, capturedBy, productName, productBrand ON capture BEGIN
                    UPDATE captureSearch SET text = (SELECT text FROM captureSearchText WHERE id = new.id) WHERE rowid = new.id;
                END;
                CREATE TRIGGER request_title_searchable_on_update AFTER UPDATE OF title ON request BEGIN
                    UPDATE captureSearch SET text = (SELECT text FROM captureSearchText WHERE id = captureSearch.rowid)
                    WHERE rowid IN (SELECT id FROM capture WHERE requestId = new.id);
                END;
                CREATE TRIGGER captureLine_searchable_on_insert AFTER INSERT ON captureLine BEGIN
                    UPDATE captureSearch SET text = (SELECT text FROM captureSearchText WHERE id = new.captureId)
                    WHERE rowid = new.captureId;
                END;
                CREATE TRIGGER captureLine_searchable_on_delete AFTER DELETE ON captureLine BEGIN
                    UPDATE captureSearch SET text = (SELECT text FROM captureSearchText WHERE id = old.captureId)
                    WHERE rowid = old.captureId;
                END;
                CREATE TRIGGER captureLine_searchable_on_update AFTER UPDATE OF captureId, barcode ON captureLine BEGIN
                    UPDATE captureSearch SET text = (SELECT text FROM captureSearchText WHERE id = captureSearch.rowid)
                    WHERE rowid IN (old.captureId, new.captureId);
                END;
                """)
    }
}
