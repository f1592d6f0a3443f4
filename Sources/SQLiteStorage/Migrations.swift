import GRDB
import Storage

/// The schema history. Migrations are frozen once shipped: change the schema by appending
/// "v2", "v3"…, never by editing an earlier one (and never with `eraseDatabaseOnSchemaChange`).
enum Migrations {
    /// The registered migrations, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        migrator.registerMigration("v2", migrate: v2)
        migrator.registerMigration("v3", migrate: v3)
        migrator.registerMigration("v4", migrate: v4)
        migrator.registerMigration("v5", migrate: v5)
        migrator.registerMigration("v6-identities", migrate: identities)
        migrator.registerMigration("v6", migrate: v6)
        migrator.registerMigration("v7-requesters", migrate: requesters)
        migrator.registerMigration("v7-catalog", migrate: catalog)
        migrator.registerMigration("v8-inbox", migrate: inbox)
        migrator.registerMigration("v9-theme", migrate: theme)
        migrator.registerMigration("v10-uids", migrate: uids)
        migrator.registerMigration("v11-search", migrate: search)
        return migrator
    }

    /// Inbox requests, committed captures and the single settings row.
    ///
    /// The value lists in the CHECK constraints are spelled out (not derived from the Swift
    /// enums) so that this migration keeps meaning the same thing forever; the kinds come from
    /// ``SchemaValues`` (pinned by StorageCoreTests, which fail if a new kind would change them).
    private static func v1(_ db: Database) throws {
        let requestKinds = SchemaValues.requestKinds  // sql-fragment: the enum's raw values, quoted
        try db.create(table: "request") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text).notNull().check(sql: "length(trim(title)) > 0")
            t.column("body", .text).notNull().defaults(to: "")
            t.column("kind", .text).notNull().check(sql: "kind IN (\(requestKinds))")
            t.column("status", .text).notNull().defaults(to: "pending").check(sql: "status IN ('pending','done')")
            t.column("createdAt", .datetime).notNull()
            t.column("doneAt", .datetime)
        }
        try db.create(index: "request_on_status_createdAt", on: "request", columns: ["status", "createdAt"])

        try db.create(table: "capture") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("kind", .text).notNull().check(sql: "kind IN (\(requestKinds))")
            t.column("barcode", .text)
            t.column("symbology", .text)
                .check(sql: "symbology IS NULL OR symbology IN ('ean13','ean8','upcA','upcE','gtin14','freeText')")
            t.column("note", .text)
            t.belongsTo("request", onDelete: .setNull)  // requestId INTEGER REFERENCES request(id), indexed
            t.column("createdAt", .datetime).notNull()
            t.check(sql: "(barcode IS NULL) = (symbology IS NULL)")
        }
        // History reads newest first.
        try db.execute(sql: "CREATE INDEX capture_on_createdAt_id ON capture(createdAt DESC, id DESC)")

        try db.create(table: "settings") { t in
            t.primaryKey("id", .integer).check(sql: "id = 1")
            t.column("snapBackTarget", .text).notNull().check(sql: "snapBackTarget IN ('lastTab','history')")
            t.column("captureGating", .boolean).notNull()
            t.column("tabBarPosition", .text).notNull().check(sql: "tabBarPosition IN ('bottom','top')")
            t.column("colorEnabled", .boolean).notNull()
            t.column("autoAdvanceMilliseconds", .integer).notNull()
                .check(sql: "autoAdvanceMilliseconds BETWEEN 0 AND 60000")
            t.column("allowFreeTextCodes", .boolean).notNull()
        }
    }
}

extension Migrations {
    /// Photos as a child table of captures, and the staging session each capture came from.
    ///
    /// `photo.storedName` is UNIQUE: a file belongs to one row at most, which is what lets the
    /// start-up sweep treat "no row names this file" as "this file is an orphan". The
    /// UNIQUE(captureId, position) index starts with captureId, so it also serves lookups by
    /// capture and the ON DELETE CASCADE; a separate captureId index would only duplicate it.
    ///
    /// `capture.stagingId` names the staging folder a capture was committed from, so recovery can
    /// tell a folder left behind by a crash *after* Done committed (remove it) from an unfinished
    /// capture (offer it back); its unique index also makes a second Done of the same session fail.
    /// The photo limits become settings: how many photos a capture holds, and the largest file.
    fileprivate static func v3(_ db: Database) throws {
        try db.alter(table: "settings") { t in
            t.add(column: "maximumPhotos", .integer).notNull().defaults(to: 3)
                .check(sql: "maximumPhotos BETWEEN 1 AND 100")
            t.add(column: "maximumPhotoBytes", .integer).notNull().defaults(to: 50 * 1024 * 1024)
                .check(sql: "maximumPhotoBytes BETWEEN 1 AND 10737418240")
        }
    }

    fileprivate static func v2(_ db: Database) throws {
        try db.create(table: "photo") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("captureId", .integer).notNull().references("capture", onDelete: .cascade)
            t.column("position", .integer).notNull().check(sql: "position >= 0")
            t.column("storedName", .text).notNull().unique()
                .check(sql: "length(storedName) > 0 AND instr(storedName, '/') = 0 AND substr(storedName, 1, 1) <> '.'")
            t.column("originalName", .text).notNull()
            t.column("format", .text).notNull().check(sql: "format IN ('png','jpeg','gif','webp','bmp','heic')")
            t.column("pixelWidth", .integer).notNull().check(sql: "pixelWidth >= 0")
            t.column("pixelHeight", .integer).notNull().check(sql: "pixelHeight >= 0")
            t.column("byteSize", .integer).notNull().check(sql: "byteSize >= 0")
            t.uniqueKey(["captureId", "position"])
        }
        try db.alter(table: "capture") { t in
            t.add(column: "stagingId", .text)
        }
        try db.execute(sql: "CREATE UNIQUE INDEX capture_on_stagingId ON capture(stagingId) WHERE stagingId IS NOT NULL")
    }
}

extension Migrations {
    /// History at a million records: an index for every browse mode's order (so every page is
    /// a keyset read along an index), the record count kept by triggers (so no page counts the
    /// table), and a full-text index for search kept in sync by triggers.
    ///
    /// - `capture_on_kind_createdAt_id` serves By kind: one group per kind, newest first inside.
    /// - `capture_on_requestId_createdAt_id` serves By request (the NULL group too) and the
    ///   foreign key; it replaces `capture_on_requestId`, which it starts with.
    /// - `request_on_title_id` walks the requests in By request's group order.
    /// - `captureCount` holds `COUNT(*)` of `capture` in its one row.
    /// - `captureSearch` (FTS5, unicode61 without diacritics, prefix indexes for 1–3
    ///   characters) holds each capture's code, note and request title under the capture's id.
    ///   It keeps its own copy of the text: SQLite 3.40 has no `contentless_delete`, and an
    ///   external-content table could not take the title from another table.
    fileprivate static func v4(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX capture_on_kind_createdAt_id ON capture(kind, createdAt DESC, id DESC);
                CREATE INDEX capture_on_requestId_createdAt_id ON capture(requestId, createdAt DESC, id DESC);
                DROP INDEX capture_on_requestId;
                CREATE INDEX request_on_title_id ON request(title COLLATE NOCASE, id);

                CREATE TABLE captureCount (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    count INTEGER NOT NULL CHECK (count >= 0)
                );
                INSERT INTO captureCount (id, count) SELECT 1, COUNT(*) FROM capture;
                CREATE TRIGGER capture_counted_on_insert AFTER INSERT ON capture BEGIN
                    UPDATE captureCount SET count = count + 1 WHERE id = 1;
                END;
                CREATE TRIGGER capture_counted_on_delete AFTER DELETE ON capture BEGIN
                    UPDATE captureCount SET count = count - 1 WHERE id = 1;
                END;

                CREATE VIRTUAL TABLE captureSearch USING fts5(
                    barcode, note, requestTitle,
                    tokenize = 'unicode61 remove_diacritics 2',
                    prefix = '1 2 3'
                );
                INSERT INTO captureSearch (rowid, barcode, note, requestTitle)
                    SELECT capture.id, capture.barcode, capture.note, request.title
                    FROM capture LEFT JOIN request ON request.id = capture.requestId;
                CREATE TRIGGER capture_searchable_on_insert AFTER INSERT ON capture BEGIN
                    INSERT INTO captureSearch (rowid, barcode, note, requestTitle)
                    VALUES (new.id, new.barcode, new.note, (SELECT title FROM request WHERE id = new.requestId));
                END;
                CREATE TRIGGER capture_searchable_on_delete AFTER DELETE ON capture BEGIN
                    DELETE FROM captureSearch WHERE rowid = old.id;
                END;
                CREATE TRIGGER capture_searchable_on_update AFTER UPDATE OF barcode, note, requestId ON capture BEGIN
                    UPDATE captureSearch
                    SET barcode = new.barcode, note = new.note,
                        requestTitle = (SELECT title FROM request WHERE id = new.requestId)
                    WHERE rowid = new.id;
                END;
                CREATE TRIGGER request_title_searchable_on_update AFTER UPDATE OF title ON request BEGIN
                    UPDATE captureSearch SET requestTitle = new.title
                    WHERE rowid IN (SELECT id FROM capture WHERE requestId = new.id);
                END;
                """)
    }
}

/// Whether this build of tabshell may open (and migrate) an existing database.
enum SchemaCompatibility: Equatable {
    /// Empty, or migrated by this build or an older one.
    case compatible
    /// Migrated by a newer tabshell; `version` is its newest schema version.
    case newer(version: String)
    /// A SQLite database of some other program.
    case foreign

    /// Inspects `db` without writing to it.
    init(_ db: Database, migrator: DatabaseMigrator) throws {
        guard try db.tableExists("grdb_migrations") else {
            let tableCount =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ) ?? 0
            self = tableCount == 0 ? .compatible : .foreign
            return
        }
        let applied = try migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(migrator.migrations)
        if unknown.isEmpty {
            self = .compatible
        } else if let first = migrator.migrations.first, applied.contains(first) {
            self = .newer(version: SchemaValues.newestVersion(of: unknown))
        } else {
            self = .foreign
        }
    }
}
