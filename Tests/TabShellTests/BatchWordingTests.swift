import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// A batch is counted in one order everywhere, codes first: History's row, capture's line and
/// `history list` all say "3 codes, 4 scans".
@Suite struct BatchWordingTests {
    @Test func historyRowSaysCodesFirst() {
        let row = HistoryRow(
            id: 1, kind: .batch, barcode: nil, note: nil, requestID: nil, requestTitle: nil, createdAt: Date(timeIntervalSince1970: 0),
            batchCodes: 3, batchScans: 4)
        #expect(row.summary == "3 codes, 4 scans")
    }

    @Test func captureSaysCodesFirst() {
        var batch = BatchLines()
        for value in ["4006381333931", "4006381333931", "96385074", "4006381333931"] {
            _ = batch.add(Barcode(value: value, symbology: value.count == 8 ? .ean8 : .ean13))
        }
        #expect(batch.summary == "2 codes, 4 scans")
        _ = batch.undoLast()
        _ = batch.undoLast()
        _ = batch.undoLast()
        #expect(batch.summary == "1 code, 1 scan")
    }
}
