import Domain
import Foundation
import GRDB
import Scanning
import Storage

/// What ``AppDatabase/generateBenchmarkData(_:now:)`` writes.
public struct BenchmarkDataPlan: Equatable, Sendable {
    /// Captures to add.
    public var records: Int
    /// Inbox requests to add.
    public var requests: Int
    /// Seed of the generator: the same plan and `now` give the same rows.
    public var seed: UInt64

    public init(records: Int, requests: Int, seed: UInt64) {
        self.records = records
        self.requests = requests
        self.seed = seed
    }
}

extension AppDatabase {
    /// Adds a realistic History for benchmarks in one transaction: `plan.requests` requests
    /// (most of them done), and `plan.records` captures one every ~30 seconds up to `now`:
    /// about 60% barcodes (EAN-13 codes with valid check digits, from a catalogue of 20,000
    /// products so codes repeat), 20% notes, 15% products with a code and a short note, 5%
    /// photo captures (without files); a fifth of them answer a request.
    ///
    /// The per-row search and count triggers are set aside for the bulk insert, then the
    /// search index is filled in one statement and the triggers are put back exactly as they
    /// were (their SQL is read from the schema): a million records take seconds, not minutes.
    ///
    /// - Returns: The number of captures in the database afterwards.
    @discardableResult
    public func generateBenchmarkData(_ plan: BenchmarkDataPlan, now: Date) throws(StorageError) -> Int {
        guard plan.records >= 0, plan.requests >= 0 else {
            throw .invalidInput("The number of records and requests cannot be negative.")
        }
        return try write { db in
            // A big page cache for the bulk insert (four indexes grow at once), then SQLite's default back.
            try db.execute(sql: "PRAGMA cache_size = -262144")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            var random = SplitMix64(seed: plan.seed)
            let triggers = try Row.fetchAll(
                db,
                sql: """
                    SELECT name, sql FROM sqlite_master
                    WHERE type = 'trigger' AND tbl_name = 'capture' AND (name LIKE 'capture_searchable_%' OR name LIKE 'capture_counted_%')
                    """
            ).map { (name: $0["name"] as String, sql: $0["sql"] as String) }
            for trigger in triggers {
                try db.execute(sql: "DROP TRIGGER " + trigger.name.quotedDatabaseIdentifier)
            }

            let requestStart = now.addingTimeInterval(-Double(plan.records) * 30 - 86_400)
            var requestIDs: [Int64] = []
            requestIDs.reserveCapacity(plan.requests)
            let insertRequest = try db.makeStatement(
                sql: """
                    INSERT INTO request (title, body, kind, status, createdAt, doneAt) VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for index in 0..<plan.requests {
                let kind = CaptureKind.requestable[Int(random.next() % UInt64(CaptureKind.requestable.count))]
                let title = "\(Words.verbs.pick(&random)) the \(Words.things.pick(&random)) in aisle \(index % 40 + 1)"
                let createdAt = requestStart.addingTimeInterval(Double(index) * 60)
                let done = random.next() % 10 < 7
                try insertRequest.execute(arguments: [
                    title, Words.sentence(&random, words: 6), kind.rawValue, done ? "done" : "pending",
                    createdAt, done ? createdAt.addingTimeInterval(3_600) : nil,
                ])
                requestIDs.append(db.lastInsertedRowID)
            }

            let catalogue = (0..<20_000).map { _ in Self.ean13(&random) }
            let insertCapture = try db.makeStatement(
                sql: """
                    INSERT INTO capture (kind, barcode, symbology, note, requestId, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                    """)
            let first = now.addingTimeInterval(-Double(plan.records) * 30)
            for index in 0..<plan.records {
                let roll = random.next() % 100
                let kind: CaptureKind = roll < 60 ? .barcode : roll < 80 ? .note : roll < 95 ? .product : .photos
                let code: String? = kind == .barcode || kind == .product ? catalogue.pick(&random) : nil
                let note: String? =
                    switch kind {
                    case .note: Words.sentence(&random, words: 3 + Int(random.next() % 8))
                    case .product: Words.sentence(&random, words: 2)
                    case .barcode, .photos, .batch: nil
                    }
                let requestID: Int64? = !requestIDs.isEmpty && random.next() % 5 == 0 ? requestIDs.pick(&random) : nil
                let createdAt = first.addingTimeInterval(Double(index) * 30 + Double(random.next() % 20))
                try insertCapture.execute(arguments: [
                    kind.rawValue, code, code == nil ? nil : "ean13", note, requestID, createdAt,
                ])
            }

            try db.execute(
                sql: """
                    DELETE FROM captureSearch;
                    INSERT INTO captureSearch (rowid, text) SELECT id, text FROM captureSearchText;
                    INSERT INTO captureSearch (captureSearch) VALUES ('optimize');
                    UPDATE captureCount SET count = (SELECT COUNT(*) FROM capture) WHERE id = 1;
                    """)
            for trigger in triggers {
                try db.execute(sql: trigger.sql)
            }
            return try Int.fetchOne(db, sql: "SELECT count FROM captureCount WHERE id = 1") ?? 0
        }
    }

    /// A random EAN-13 code with its check digit.
    private static func ean13(_ random: inout SplitMix64) -> String {
        let payload = (0..<12).map { index in index == 0 ? 4 : Int(random.next() % 10) }
        return (payload + [CheckDigit.gs1(of: payload)]).map(String.init).joined()
    }
}

/// A small, fast, seedable generator (SplitMix64), so generated data sets are reproducible.
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private extension Array {
    func pick(_ random: inout SplitMix64) -> Element {
        self[Int(random.next() % UInt64(count))]
    }
}

/// Words for generated titles and notes.
private enum Words {
    static let verbs = ["Scan", "Check", "Count", "Photograph", "Note", "Verify", "Record", "Label"]
    static let things = [
        "shelf label", "pallet", "delivery", "coffee beans", "olive oil", "freezer", "returns crate",
        "milk crates", "dented box", "price tag", "rice sacks", "spare parts", "cable drum", "paint tins",
    ]
    static let plain = [
        "box", "damaged", "left", "right", "top", "shelf", "crate", "signed", "missing", "extra", "wet",
        "cold", "front", "back", "label", "torn", "sealed", "open", "driver", "late", "early", "blue",
        "green", "red", "pallet", "seal", "carton", "batch", "expiry", "fresh", "store", "aisle",
        "cooler", "ladder", "forklift", "invoice", "receipt", "sample", "broken", "count",
    ]

    static func sentence(_ random: inout SplitMix64, words: Int) -> String {
        (0..<max(words, 1)).map { _ in plain.pick(&random) }.joined(separator: " ")
    }
}
