import CaptureMode
import Foundation
import GRDB
import TabShell

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

    /// All History rows, newest first (served by the `capture_on_createdAt_id` index).
    static func all() -> QueryInterfaceRequest<HistoryRowRecord> {
        CaptureRecord
            .annotated(withOptional: CaptureRecord.answeredRequest
                .select(RequestRecord.Columns.title.forKey("requestTitle")))
            .order(CaptureRecord.Columns.createdAt.desc, CaptureRecord.Columns.id.desc)
            .asRequest(of: HistoryRowRecord.self)
    }

    var historyRow: HistoryRow {
        var code: Barcode?
        if let barcode, let symbology {
            code = Barcode(value: barcode, symbology: symbology)
        }
        return HistoryRow(
            id: id, kind: kind, barcode: code, note: note,
            requestID: requestId, requestTitle: requestTitle, createdAt: createdAt
        )
    }
}
