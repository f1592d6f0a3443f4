import Crypto
import Domain
import Foundation
import PostgresNIO
import Storage

/// What `tabshell db copy` moved, and the checksums of both sides.
public struct StoreCopyReport: Equatable, Sendable {
    public var requests = 0
    public var records = 0
    /// Photos of records (a photo in two records counts twice).
    public var photos = 0
    /// Distinct photos kept (identical photos are kept once).
    public var photoContents = 0
    public var photoBytes: Int64 = 0
    public var products = 0
    /// SHA-256 of the source's content, read from SQLite.
    public var sourceChecksum = ""
    /// SHA-256 of the same content read back from PostgreSQL before the copy was committed.
    public var targetChecksum = ""
}

/// `tabshell db copy`: an SQLite store (settings, requests, records with their GS1 fields,
/// batch lines and photos, the product catalog) into an empty PostgreSQL store, in one
/// transaction. Ids are kept (so links and exports still name the same records), the
/// identity sequences are moved past them, and before COMMIT the target is read back and its
/// checksum compared with the source's: a difference rolls everything back.
public enum StoreCopy {
    public static func copy(
        from source: some CopySource, to target: PostgresStore, progress: (StoreCopyReport) -> Void = { _ in }
    ) throws(StorageError) -> StoreCopyReport {
        try target.pool.transaction { session throws(StorageError) in
            try refuseNonEmpty(target, session)
            var report = StoreCopyReport()
            var digest = StoreDigest()
            var products: [(String, Product)] = []
            var contents = Set<String>()
            try source.readForCopy(
                settings: { settings throws(StorageError) in
                    digest.add(settings)
                    try PostgresStatements(session: session).execute(SettingsRows.upsert(settings))
                },
                request: { request, uid throws(StorageError) in
                    digest.add(request, uid: uid)
                    try insert(request, uid: uid, session)
                    report.requests += 1
                },
                record: { record throws(StorageError) in
                    let hashes = try insert(record, session)
                    digest.add(record, photoHashes: hashes.map(\.hash))
                    report.records += 1
                    report.photos += record.photos.count
                    for (hash, bytes) in hashes where contents.insert(hash).inserted {
                        report.photoContents += 1
                        report.photoBytes += bytes
                    }
                    if report.records % 500 == 0 { progress(report) }
                },
                product: { code, product throws(StorageError) in
                    digest.add(code: code, product)
                    products.append((code, product))
                    report.products += 1
                    if products.count == CatalogRows.batchSize {
                        try CatalogRows.upsert(products, PostgresStatements(session: session))
                        products = []
                    }
                })
            try CatalogRows.upsert(products, PostgresStatements(session: session))
            // New rows on any host get ids past the copied ones.
            try session.execute("SELECT setval(pg_get_serial_sequence('request', 'id'), coalesce((SELECT max(id) FROM request), 0) + 1, false)")
            try session.execute("SELECT setval(pg_get_serial_sequence('capture', 'id'), coalesce((SELECT max(id) FROM capture), 0) + 1, false)")
            report.sourceChecksum = digest.hex
            report.targetChecksum = try StoreDigest.read(target, session).hex
            guard report.sourceChecksum == report.targetChecksum else {
                throw .sql(
                    "The copy in \(target.displayName) does not read back as \(source.displayName) "
                        + "(checksums \(report.sourceChecksum.prefix(12))… and \(report.targetChecksum.prefix(12))…); nothing was copied.")
            }
            return report
        }
    }

    private static func refuseNonEmpty(_ target: PostgresStore, _ session: PostgresSession) throws(StorageError) {
        let row = try session.rows(
            "SELECT (SELECT count(*) FROM request), (SELECT count(*) FROM capture), (SELECT count(*) FROM product)"
        ).first
        guard let (requests, records, products) = try? row?.decode((Int, Int, Int).self) else { return }
        guard requests + records + products == 0 else {
            throw .invalidInput(
                "\(target.displayName) already holds \(requests) requests, \(records) records and \(products) products; "
                    + "db copy fills an empty store only, so nothing is doubled. Nothing was copied.")
        }
    }

    /// A request, with its uid (a new one where the source has none, as its migration gave).
    private static func insert(_ request: InboxRequest, uid: String?, _ session: PostgresSession) throws(StorageError) {
        try session.execute(
            """
            INSERT INTO request (id, title, body, kind, status, created_at, done_at, created_by, requester, uid)
            VALUES (\(request.id), \(request.title), \(request.body), \(request.kind.rawValue), \(request.status.rawValue),
                    \(request.createdAt), \(request.doneAt), \(request.createdBy), \(request.requester),
                    \(uid ?? RecordIdentity.make()))
            """)
    }

    /// Inserts a record and its photos; returns each photo's hash and size.
    private static func insert(_ record: CopiedRecord, _ session: PostgresSession) throws(StorageError) -> [(hash: String, bytes: Int64)] {
        var hashes: [(hash: String, bytes: Int64)] = []
        for (photo, file) in record.photos {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw .fileSystem("The photo \(photo.originalName) of record #\(record.row.id) is missing (\(file.path)); nothing was copied.")
            }
            let local = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            let stored = try session.storePhotoContent(
                data, format: photo.format, pixelWidth: photo.pixelWidth, pixelHeight: photo.pixelHeight)
            guard stored == local else {
                throw .sql("The photo \(photo.originalName) of record #\(record.row.id) did not arrive intact; nothing was copied.")
            }
            hashes.append((local, Int64(data.count)))
        }
        let row = record.row
        try session.execute(
            """
            INSERT INTO capture (id, kind, barcode, symbology, note, request_id, created_at, staging_id, captured_by,
                                 input_source, requester, product_name, product_brand, uid)
            VALUES (\(row.id), \(row.kind.rawValue), \(row.barcode?.value), \(row.barcode?.symbology.rawValue), \(row.note),
                    \(row.requestID), \(row.createdAt), \(record.stagingID), \(row.capturedBy), \(record.inputSource),
                    \(row.requester), \(row.product?.name), \(row.product?.brand), \(record.uid ?? RecordIdentity.make()))
            """)
        for ((photo, _), (hash, _)) in zip(record.photos, hashes) {
            try session.insertPhotoRow(captureID: row.id, position: photo.position, hash: hash, originalName: photo.originalName)
        }
        let statements = PostgresStatements(session: session)
        try CaptureRows.insertElements(record.elements, captureID: row.id, statements)
        try CaptureRows.insertLines(record.lines, captureID: row.id, statements)
        return hashes
    }
}

/// A SHA-256 over a store's content in a fixed order and form, computed the same way from
/// SQLite's rows and PostgreSQL's: settings, requests by id, records by id (every column, GS1
/// fields, batch lines, photos with their contents' hashes), products by code. Each value goes
/// in with its length, so no two contents read alike.
struct StoreDigest {
    private var hasher = SHA256()

    var hex: String { hasher.finalize().map { String(format: "%02x", $0) }.joined() }

    private mutating func field(_ text: String?) {
        guard let text else {
            hasher.update(data: Data("-|".utf8))
            return
        }
        let bytes = Data(text.utf8)
        hasher.update(data: Data("\(bytes.count):".utf8))
        hasher.update(data: bytes)
        hasher.update(data: Data("|".utf8))
    }

    /// One entry: its tag (one letter), then its values in order.
    private mutating func entry(_ tag: String, _ values: [String?]) {
        for value in [tag] + values { field(value) }
    }

    /// A number as a value.
    private static func text(_ number: (some BinaryInteger)?) -> String? { number.map { String($0) } }
    /// An instant as a value: its milliseconds since 1970.
    private static func text(_ date: Date?) -> String? { text(date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }) }

    mutating func add(_ settings: Settings) {
        let record = SettingsRecord(settings)
        entry(
            "S",
            [
                record.settings.snapBackTarget.rawValue, "\(record.settings.captureGating)", record.settings.tabBarPosition.rawValue,
                "\(record.settings.colorEnabled)", "\(record.settings.autoAdvanceMilliseconds)", "\(record.settings.allowFreeTextCodes)",
                "\(record.settings.maximumPhotos)", "\(record.settings.maximumPhotoBytes)", record.scannerLayout ?? "-", "\(record.tabBarMinimizes)",
                record.separatorStandIn ?? "-", record.settings.photoPreviews.rawValue, record.theme ?? "-",
            ])
    }

    mutating func add(_ request: InboxRequest, uid: String?) {
        entry(
            "R",
            [
                Self.text(request.id), uid, request.title, request.body, request.kind.rawValue, request.status.rawValue,
                Self.text(request.createdAt), Self.text(request.doneAt), request.createdBy, request.requester,
            ])
    }

    mutating func add(_ record: CopiedRecord, photoHashes: [String]) {
        let row = record.row
        entry(
            "C",
            [
                Self.text(row.id), row.kind.rawValue, row.barcode?.value, row.barcode?.symbology.rawValue, row.note, Self.text(row.requestID),
                Self.text(row.createdAt), row.capturedBy, row.requester, row.product?.name, row.product?.brand, record.stagingID,
                record.inputSource, record.uid,
            ])
        for element in record.elements.sorted(by: { $0.ai < $1.ai }) {
            entry("E", [element.ai, element.value])
        }
        for line in record.lines {
            entry("L", [line.barcode.value, line.barcode.symbology.rawValue, Self.text(line.quantity)])
        }
        for ((photo, _), hash) in zip(record.photos, photoHashes) {
            entry(
                "P",
                [
                    Self.text(photo.position), photo.originalName, photo.format.rawValue, Self.text(photo.pixelWidth),
                    Self.text(photo.pixelHeight), Self.text(photo.byteSize), hash,
                ])
        }
    }

    mutating func add(code: String, _ product: Product) {
        entry("K", [code, product.name, product.brand, product.quantity, product.energyKcal.map { "\($0)" }])
    }

    /// The digest of what a PostgreSQL store holds, read on `session` (inside the copy's
    /// transaction) as the source was read; a photo's hash is in the name of its cached file.
    static func read(_ store: PostgresStore, _ session: PostgresSession) throws(StorageError) -> StoreDigest {
        var digest = StoreDigest()
        try store.readForCopy(
            PostgresStatements(session: session), settings: { digest.add($0) }, request: { digest.add($0, uid: $1) },
            record: { record in digest.add(record, photoHashes: record.photos.map { PhotoCache.hash(ofStoredName: $0.photo.storedName) ?? "" }) },
            product: { digest.add(code: $0, $1) })
        return digest
    }
}
