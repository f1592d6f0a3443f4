import Domain
import Foundation

/// One committed record with everything a copy to another engine keeps: the record as History
/// shows it, the columns History does not show (where it was committed from, where its code
/// came from), its GS1 fields, batch lines and photos with their files.
public struct CopiedRecord: Sendable {
    public var row: HistoryRow
    public var stagingID: String?
    public var inputSource: String?
    /// Its identity, which export and import match records by (nil only where a store has none).
    public var uid: String?
    /// GS1 fields as stored: (AI, value).
    public var elements: [(ai: String, value: String)]
    public var lines: [BatchLine]
    /// In order, each with the file its bytes are in.
    public var photos: [(photo: RecordPhoto, file: URL)]

    public init(
        row: HistoryRow, stagingID: String?, inputSource: String?, uid: String?, elements: [(ai: String, value: String)],
        lines: [BatchLine], photos: [(photo: RecordPhoto, file: URL)]
    ) {
        self.row = row
        self.stagingID = stagingID
        self.inputSource = inputSource
        self.uid = uid
        self.elements = elements
        self.lines = lines
        self.photos = photos
    }
}

/// A store `tabshell db copy` can read from: everything it holds, from one snapshot, in id
/// order (SQLite's ``readForCopy``; the copy's target is another engine).
public protocol CopySource: RecordStore {
    /// The settings, every request (with its uid), every record and every catalog product, in
    /// id order. Records are read a page at a time, so memory does not grow with the store.
    func readForCopy(
        settings: (Settings) throws -> Void,
        request: (InboxRequest, _ uid: String?) throws -> Void,
        record: (CopiedRecord) throws -> Void,
        product: (String, Product) throws -> Void
    ) throws
}
