import Domain
import Foundation

/// Done's and `history import`'s rows for one capture, written once for both engines: the
/// capture, its GS1 fields and its batch lines. What each engine does its own way comes in as
/// two steps: the one before the capture (``CaptureSteps/ahead``) and its photo rows
/// (``CaptureSteps/photos``): SQLite names its photos' files, PostgreSQL their contents by hash.
public enum CaptureRows {
    /// How many batch lines one statement inserts (5 values a line, inside both engines' bounds
    /// on a statement's values). PostgreSQL indexes a record's lines for search once a
    /// statement, so a batch of up to this many codes is indexed once.
    public static let linesPerStatement = 1_000

    /// An engine's own steps of a capture's rows, inside the caller's transaction.
    public struct CaptureSteps {
        /// Before the capture: the id it must take when its batch's lines go in first (SQLite,
        /// so its full-text row is written once, with every code), or nil for the lines after
        /// it (PostgreSQL, which locks its record count's row here so ids follow commit order).
        let ahead: () throws(StorageError) -> Int64?
        /// The photo rows of the capture with this id, in order.
        let photos: (Int64) throws(StorageError) -> Void

        public init(ahead: @escaping () throws(StorageError) -> Int64?, photos: @escaping (Int64) throws(StorageError) -> Void) {
            self.ahead = ahead
            self.photos = photos
        }
    }

    /// Done inside the caller's transaction: the request it answers marked done at `now`, and
    /// the capture with what the catalog calls its product now (which the record keeps).
    /// Returns the capture's id.
    public static func commit(
        _ submission: CaptureSubmission, now: Date, stagingID: String?, capturedBy: String?, _ steps: CaptureSteps,
        _ session: any StatementSession
    ) throws(StorageError) -> Int64 {
        if let requestID = submission.requestID { try RequestRows.markAnswered(id: requestID, now: now, session) }
        let product = try submission.barcode.flatMap { barcode throws(StorageError) in
            try CatalogRows.product(key: Product.catalogKey(for: barcode), session)
        }
        return try insert(
            submission, createdAt: now, stagingID: stagingID, capturedBy: capturedBy, product: product, uid: nil, steps, session)
    }

    /// One capture's rows inside the caller's transaction: the capture (committed from
    /// `stagingID`, keeping `product` as its name and brand, and the requester of the request
    /// it answers), its photo rows, its GS1 fields and its batch lines. The request is the
    /// caller's. Returns the capture's id.
    public static func insert(
        _ submission: CaptureSubmission, createdAt: Date, stagingID: String?, capturedBy: String?, product: Product?, uid: String?,
        _ steps: CaptureSteps, _ session: any StatementSession
    ) throws(StorageError) -> Int64 {
        let ahead = try steps.ahead()
        if let ahead { try insertLines(submission.lines, captureID: ahead, session) }
        let values: StoreSQL = """
            \(submission.kind.rawValue), \(submission.barcode?.value), \(submission.barcode?.symbology.rawValue),
            \(submission.note), \(submission.requestID), \(createdAt), \(stagingID), \(capturedBy),
            \(submission.codeSource?.rawValue), (SELECT requester FROM request WHERE id = \(submission.requestID)),
            \(product?.name), \(product?.brand), \(uid ?? RecordIdentity.make())
            """
        let columns = SQLFragment(
            """
            kind, barcode, symbology, note, request_id, created_at, staging_id, captured_by, input_source, requester,
            product_name, product_brand, uid
            """)
        let withID: StoreSQL = "INSERT INTO capture (id, \(columns)) VALUES (\(ahead ?? 0), \(values)) RETURNING id"
        let withoutID: StoreSQL = "INSERT INTO capture (\(columns)) VALUES (\(values)) RETURNING id"
        // Prepared once a connection: SQLite compiles the capture's triggers (full text, counts)
        // into the statement, which cost more than the insert itself (20,000 records imported
        // in 38 s prepared each time, 14 s kept).
        var insert = ahead == nil ? withoutID : withID
        insert.isRepeated = true
        let inserted = try session.integer(insert)
        guard let captureID = inserted else { throw .sql("The store did not say which id the new record got.") }
        try steps.photos(captureID)
        if let barcode = submission.barcode, barcode.value.hasPrefix("(") {
            try insertElements(barcode.reading.elements.map { ($0.ai, $0.raw) }, captureID: captureID, session)
        }
        if ahead == nil { try insertLines(submission.lines, captureID: captureID, session) }
        return captureID
    }

    /// A capture's GS1 fields, (AI, value) as read (also `db copy`'s); an AI given twice keeps its last value.
    public static func insertElements(_ elements: [(ai: String, value: String)], captureID: Int64, _ session: any StatementSession)
        throws(StorageError)
    {
        for element in elements {
            var upsert: StoreSQL = """
                INSERT INTO capture_element (capture_id, ai, value) VALUES (\(captureID), \(element.ai), \(element.value))
                ON CONFLICT (capture_id, ai) DO UPDATE SET value = excluded.value
                """
            upsert.isRepeated = true
            try session.execute(upsert)
        }
    }

    /// A batch's lines in scan order, ``linesPerStatement`` a statement (also `db copy`'s).
    public static func insertLines(_ lines: [BatchLine], captureID: Int64, _ session: any StatementSession) throws(StorageError) {
        var start = 0
        while start < lines.count {
            let end = min(start + linesPerStatement, lines.count)
            let values = StoreSQL(
                list: (start..<end).map { position in
                    let line = lines[position]
                    return "(\(captureID), \(position), \(line.barcode.value), \(line.barcode.symbology.rawValue), \(line.quantity))"
                })
            try session.execute("INSERT INTO capture_line (capture_id, position, barcode, symbology, quantity) VALUES \(values)")
            start = end
        }
    }
}
