import Domain
import Foundation

/// One History record as `tabshell history export` writes it: the record as History lists it,
/// the request it answers as the Inbox knows it, its photos with where their files are, a
/// batch's lines and where its code came from.
/// Built from the model's own types, so an export cannot drift from what the screens show;
/// `record.id`, `record.note`… read the History row's fields. docs/export.md has the formats.
@dynamicMemberLookup
public struct ExportedRecord: Equatable, Sendable {
    /// The `version` of the JSON export (and of `history list --json`): bumped when a field
    /// changes meaning or goes, never for a field added.
    public static let formatVersion = 1

    public var row: HistoryRow
    public var request: InboxRequest?
    /// In the order they were added (empty in `history list`, which counts them).
    public var photos: [RecordPhoto]
    /// The media folder the photos' files are in.
    public var mediaPath: String
    /// A batch's lines in scan order (each code and how many times it was scanned); empty for
    /// the other kinds.
    public var lines: [BatchLine]
    /// Where its code (or a batch's scans) came from, when tabshell knew.
    public var source: CodeSource?
    /// The record's identity, kept by export and import (docs/export.md); nil only for a value
    /// made without a store.
    public var uid: String?
    /// The identity of the request it answers.
    public var requestUID: String?

    public init(
        row: HistoryRow, request: InboxRequest?, photos: [RecordPhoto] = [], mediaPath: String = "", lines: [BatchLine] = [],
        source: CodeSource? = nil, uid: String? = nil, requestUID: String? = nil
    ) {
        self.uid = uid
        self.requestUID = requestUID
        self.row = row
        self.request = request
        self.photos = photos
        self.mediaPath = mediaPath
        self.lines = lines
        self.source = source
        if !lines.isEmpty {
            self.row.batchCodes = lines.count
            self.row.batchScans = lines.reduce(0) { $0 + $1.quantity }
        }
    }

    public subscript<Value>(dynamicMember field: KeyPath<HistoryRow, Value>) -> Value { row[keyPath: field] }

    /// The absolute path of a photo's stored file.
    public func path(of photo: RecordPhoto) -> String { mediaPath + "/" + photo.storedName }
}
