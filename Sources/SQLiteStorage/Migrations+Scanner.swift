import GRDB
import Storage

extension Migrations {
    /// Scanner-grade capture: every symbology Scanning reads, where a code came from, the
    /// GS1 fields of a code as rows (so they can be searched and exported by AI), and batch
    /// captures' lines.
    ///
    /// - `capture.symbology` takes every symbology (the list is spelled out, frozen here);
    ///   `capture.kind` takes `batch`. SQLite cannot change a CHECK in place, so `capture` is
    ///   rebuilt from its own stored definition with the two lists replaced (every other column,
    ///   whoever added it, is kept), its rows copied, and its indexes and triggers made again
    ///   from their stored SQL.
    /// - `capture.inputSource`: `scanner`, `person` (told apart by keystroke timing), `paste`
    ///   or `photo` (read from a photo); NULL for older records.
    /// - `captureElement`: one row per GS1 field of the capture's code, `(captureId, ai)` unique,
    ///   indexed by `(ai, value)` so a lot or serial is found by index.
    /// - `captureLine`: a batch capture's lines in scan order, each code with its quantity.
    /// - `settings.scannerLayout`: Settings › Scanner layout, `us>azerty` or NULL;
    ///   `settings.tabBarMinimizes`: whether scrolling down minimizes the tab bar;
    ///   `settings.separatorStandIn`: the character a scanner sends for FNC1, or NULL.
    static func v5(_ db: Database) throws {
        guard let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'capture'") else {
            throw DatabaseError(message: "The capture table is missing.")
        }
        let oldSymbology = "symbology IS NULL OR symbology IN ('ean13','ean8','upcA','upcE','gtin14','freeText')"
        let newSymbology =
            "symbology IS NULL OR symbology IN ('ean13','ean8','upcA','upcE','gtin14','itf14','isbn10','isbn13','issn','issn13','gs1ElementString','gs1DigitalLink','gs1_128','gs1DataBar','gs1DataMatrix','gs1QR','gs1DotCode','code128','code39','code93','code11','codabar','interleaved2of5','standard2of5','msi','plessey','telepen','code16K','code49','codablock','codeOne','channelCode','anker','pdf417','dataMatrix','qr','aztec','maxiCode','dotCode','hanXin','otherBarcode','nonBarcode','freeText')"
        let (requestKinds, captureKinds) = (SchemaValues.requestKinds, SchemaValues.captureKinds)  // sql-fragment
        let oldKind = "kind IN (\(requestKinds))"
        let newKind = "kind IN (\(captureKinds))"
        guard table.contains(oldSymbology), table.contains(oldKind), table.hasPrefix("CREATE TABLE \"capture\"") else {
            throw DatabaseError(message: "The capture table is not the one this migration knows.")
        }
        let rebuilt =
            table
            .replacingOccurrences(of: oldSymbology, with: newSymbology)
            .replacingOccurrences(of: oldKind, with: newKind)
            .replacingOccurrences(of: "CREATE TABLE \"capture\"", with: "CREATE TABLE \"capture_v5\"")
        let dependents = try String.fetchAll(
            db,
            sql: """
                SELECT sql FROM sqlite_master
                WHERE tbl_name = 'capture' AND type IN ('index', 'trigger') AND sql IS NOT NULL
                ORDER BY type = 'trigger', name
                """)
        try db.execute(sql: rebuilt)
        try db.execute(sql: "INSERT INTO capture_v5 SELECT * FROM capture")
        try db.execute(sql: "DROP TABLE capture")
        // Other tables' triggers name `capture`; with the legacy rule the rename does not
        // re-check them while no table has that name.
        try db.execute(sql: "PRAGMA legacy_alter_table = ON")
        try db.execute(sql: "ALTER TABLE capture_v5 RENAME TO capture")
        try db.execute(sql: "PRAGMA legacy_alter_table = OFF")
        for statement in dependents {
            try db.execute(sql: statement)
        }

        try db.alter(table: "capture") { t in
            t.add(column: "inputSource", .text).check(sql: "inputSource IS NULL OR inputSource IN ('scanner','person','paste','photo')")
        }
        try db.alter(table: "settings") { t in
            t.add(column: "scannerLayout", .text).check(sql: "scannerLayout IS NULL OR scannerLayout GLOB '[a-z]*>[a-z]*'")
            t.add(column: "tabBarMinimizes", .boolean).notNull().defaults(to: true)
            t.add(column: "separatorStandIn", .text).check(sql: "separatorStandIn IS NULL OR length(separatorStandIn) = 1")
        }
        try db.execute(
            sql: """
                CREATE TABLE captureElement (
                    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                    ai TEXT NOT NULL CHECK (length(ai) BETWEEN 2 AND 4),
                    value TEXT NOT NULL,
                    PRIMARY KEY (captureId, ai)
                ) WITHOUT ROWID;
                CREATE INDEX captureElement_on_ai_value ON captureElement(ai, value);
                CREATE TABLE captureLine (
                    captureId INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL CHECK (position >= 0),
                    barcode TEXT NOT NULL CHECK (length(barcode) > 0),
                    symbology TEXT NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity >= 1),
                    PRIMARY KEY (captureId, position)
                ) WITHOUT ROWID;
                """)
    }
}
