import Domain
import Foundation
import GRDB
import Storage

/// A capture joined with the title of the request it answers, as History lists it.
struct HistoryRowRecord: Decodable, FetchableRecord {
    var id: Int64
    var kind: CaptureKind
    var barcode: String?
    var symbology: Symbology?
    var note: String?
    var requestId: Int64?
    var requestTitle: String?
    var createdAt: Date
    var capturedBy: String?
    var requester: String?
    var productName: String?
    var productBrand: String?
    var photoCount = 0
    var firstPhotoName: String?
    var batchCodes = 0
    var batchScans = 0
    var requestAfterDeletion: RequestAfterDeletion?

    /// All History rows, newest first (served by the `capture_on_createdAt_id` index).
    static func all() -> QueryInterfaceRequest<HistoryRowRecord> {
        CaptureRecord
            .annotated(
                withOptional: CaptureRecord.answeredRequest
                    .select(RequestRecord.Columns.title.forKey("requestTitle"))
            )
            .order(CaptureRecord.Columns.createdAt.desc, CaptureRecord.Columns.id.desc)
            .asRequest(of: HistoryRowRecord.self)
    }

    /// Reads the columns by name, without Codable's keyed containers: decoding went through
    /// `Decoder` per column and was most of a History page's time (profiled at 1M records).
    /// A NULL where the schema forbids one, or an unknown kind or symbology, is an error.
    init(row: Row) throws {
        guard let id: Int64 = row["id"], let kindName: String = row["kind"], let createdAt: Date = row["createdAt"],
            let kind = CaptureKind(rawValue: kindName)
        else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "A History row lacks its id, kind or date.")
        }
        var symbology: Symbology?
        if let name: String = row["symbology"] {
            guard let known = Symbology(rawValue: name) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "Unknown symbology \(name).")
            }
            symbology = known
        }
        self.init(
            id: id, kind: kind, barcode: row["barcode"], symbology: symbology, note: row["note"],
            requestId: row["requestId"], requestTitle: row["requestTitle"], createdAt: createdAt,
            capturedBy: row["capturedBy"]
        )
        // Present in History's and search's selections; absent in older callers' rows.
        requester = row["requester"]
        productName = row["productName"]
        productBrand = row["productBrand"]
        if row.hasColumn("photoCount") { photoCount = row["photoCount"] ?? 0 }
        firstPhotoName = row["firstPhotoName"]
        if row.hasColumn("batchCodes") {
            batchCodes = row["batchCodes"] ?? 0
            batchScans = Int((row["batchScans"] as Double?) ?? 0)
        }
        requestAfterDeletion = (row["requestAfterDeletion"] as String?).flatMap(RequestAfterDeletion.init(rawValue:))
    }

    init(
        id: Int64, kind: CaptureKind, barcode: String?, symbology: Symbology?, note: String?,
        requestId: Int64?, requestTitle: String?, createdAt: Date, capturedBy: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.barcode = barcode
        self.symbology = symbology
        self.note = note
        self.requestId = requestId
        self.requestTitle = requestTitle
        self.createdAt = createdAt
        self.capturedBy = capturedBy
    }

    var historyRow: HistoryRow {
        var code: Barcode?
        if let barcode, let symbology {
            code = Barcode(value: barcode, symbology: symbology)
        }
        return HistoryRow(
            id: id, kind: kind, barcode: code, note: note,
            requestID: requestId, requestTitle: requestTitle, createdAt: createdAt,
            capturedBy: capturedBy, requester: requester, product: productName.map { Product(name: $0, brand: productBrand) },
            photoCount: photoCount, firstPhotoName: firstPhotoName, batchCodes: batchCodes, batchScans: batchScans,
            requestAfterDeletion: requestAfterDeletion
        )
    }
}
