import GRDB
import Storage

extension Migrations {
    /// The product catalog (seed 003's lookup): `product` keyed by the catalog key
    /// (`Product.catalogKey`: a GTIN as 14 digits, or a code exactly as written), without rowid
    /// so a lookup is one b-tree search. A capture keeps the name and brand its code had in the
    /// catalog when it was committed (`productName`, `productBrand`), so History and search do not
    /// change when the catalog does. Search finds records by product name: the full-text index is
    /// rebuilt with a fifth column (an FTS5 table cannot gain one), as "v6-identities" did.
    static func catalog(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE product (
                    code TEXT PRIMARY KEY NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
                    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 500),
                    brand TEXT,
                    quantity TEXT,
                    energyKcal REAL
                ) WITHOUT ROWID;
                ALTER TABLE capture ADD COLUMN productName TEXT;
                ALTER TABLE capture ADD COLUMN productBrand TEXT;

                DROP TRIGGER capture_searchable_on_insert;
                DROP TRIGGER capture_searchable_on_delete;
                DROP TRIGGER capture_searchable_on_update;
                DROP TRIGGER request_title_searchable_on_update;
                DROP TABLE captureSearch;

                CREATE VIRTUAL TABLE captureSearch USING fts5(
                    barcode, note, requestTitle, capturedBy, product,
                    tokenize = 'unicode61 remove_diacritics 2',
                    prefix = '1 2 3'
                );
                INSERT INTO captureSearch (rowid, barcode, note, requestTitle, capturedBy, product)
                    SELECT capture.id, capture.barcode, capture.note, request.title, capture.capturedBy,
                           trim(coalesce(capture.productName, '') || ' ' || coalesce(capture.productBrand, ''))
                    FROM capture LEFT JOIN request ON request.id = capture.requestId;
                CREATE TRIGGER capture_searchable_on_insert AFTER INSERT ON capture BEGIN
                    INSERT INTO captureSearch (rowid, barcode, note, requestTitle, capturedBy, product)
                    VALUES (new.id, new.barcode, new.note, (SELECT title FROM request WHERE id = new.requestId), new.capturedBy,
                            trim(coalesce(new.productName, '') || ' ' || coalesce(new.productBrand, '')));
                END;
                CREATE TRIGGER capture_searchable_on_delete AFTER DELETE ON capture BEGIN
                    DELETE FROM captureSearch WHERE rowid = old.id;
                END;
                CREATE TRIGGER capture_searchable_on_update
                AFTER UPDATE OF barcode, note, requestId, capturedBy, productName, productBrand ON capture BEGIN
                    UPDATE captureSearch
                    SET barcode = new.barcode, note = new.note,
                        requestTitle = (SELECT title FROM request WHERE id = new.requestId),
                        capturedBy = new.capturedBy,
                        product = trim(coalesce(new.productName, '') || ' ' || coalesce(new.productBrand, ''))
                    WHERE rowid = new.id;
                END;
                CREATE TRIGGER request_title_searchable_on_update AFTER UPDATE OF title ON request BEGIN
                    UPDATE captureSearch SET requestTitle = new.title
                    WHERE rowid IN (SELECT id FROM capture WHERE requestId = new.id);
                END;
                """)
    }
}
