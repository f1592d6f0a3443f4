import Domain
import Foundation

// How `history import` knows a record or a request the store already holds, so importing the
// same file twice adds nothing. Every record and request carries a `uid`, given when it is made
// and kept by export, import and copy. A file from before uids (or written by another program)
// is matched by content instead: the same kind, time (to the millisecond the export keeps),
// person, code, note and batch lines for a record; the same title, kind and time for a request.

/// A new identity: a random (version 4) UUID in lower case, as both engines' schemas make them.
public enum RecordIdentity {
    public static func make() -> String { UUID().uuidString.lowercased() }

    /// Whether `text` can be a `uid` in an import: 1 to 64 letters, digits, `-`, `_`, `.` or `:`.
    public static func isValid(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || [45, 95, 46, 58].contains(byte)
            }
    }

    /// A time as the export keeps it: whole milliseconds since 1970.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// What a record is, when it has no uid to say so.
public struct RecordFingerprint: Hashable, Sendable {
    public var kind: CaptureKind
    public var milliseconds: Int64
    public var capturedBy: String?
    public var barcode: Barcode?
    public var note: String?
    public var lines: [BatchLine]
}

/// What a request is, when it has no uid to say so.
public struct RequestFingerprint: Hashable, Sendable {
    public var title: String
    public var kind: CaptureKind
    public var milliseconds: Int64
}

extension ImportedRecord {
    public var fingerprint: RecordFingerprint {
        RecordFingerprint(
            kind: kind, milliseconds: RecordIdentity.milliseconds(createdAt), capturedBy: capturedBy, barcode: barcode, note: note, lines: lines)
    }
}

extension InboxRequest {
    public var fingerprint: RequestFingerprint {
        RequestFingerprint(title: title, kind: kind, milliseconds: RecordIdentity.milliseconds(createdAt))
    }
}

/// Which records and requests of an import the store already holds.
public struct ImportMatches: Equatable, Sendable {
    /// The records already present, by their index in ``ImportedHistory/records`` (the id they
    /// have in the store; nil for a record the file itself holds twice).
    public var presentRecords: [Int: Int64?] = [:]
    /// The requests already present, by their index in ``ImportedHistory/requests``: their id.
    public var presentRequests: [Int: Int64] = [:]

    /// The requests the records to add answer and the store does not have: what an import adds.
    public func newRequests(of history: ImportedHistory) -> Set<Int> {
        var wanted = Set<Int>()
        for (index, record) in history.records.enumerated() where presentRecords[index] == nil {
            if let request = record.request, presentRequests[request] == nil { wanted.insert(request) }
        }
        return wanted
    }
}

extension ImportedHistory {
    /// The uid a record is stored with: the file's, or a new one.
    public func uid(ofRecord index: Int) -> String {
        records[index].uid ?? RecordIdentity.make()
    }

    /// The uid a request is stored with: the file's, or a new one.
    public func uid(ofRequest index: Int) -> String {
        (requestUIDs.indices.contains(index) ? requestUIDs[index] : nil) ?? RecordIdentity.make()
    }

    /// Which records and requests `lookup`'s store already holds: by uid first, then (for one
    /// without a uid, or whose uid the store does not know) by what it is. Each record of the
    /// store answers for one record of the file, so a file holding the same content twice keeps
    /// both unless the store has both.
    func matches(in lookup: StatementImportLookup) throws(StorageError) -> ImportMatches {
        var matches = ImportMatches()
        var claimed = Set<Int64>()
        var seenUIDs = Set<String>()
        for (index, record) in records.enumerated() {
            if let uid = record.uid {
                guard seenUIDs.insert(uid).inserted else {
                    matches.presentRecords[index] = .some(nil)
                    continue
                }
                if let id = try lookup.id(in: SQLFragment("capture"), uid: uid) {
                    claimed.insert(id)
                    matches.presentRecords[index] = id
                    continue
                }
            }
            let fingerprint = record.fingerprint
            if let found = try lookup.records(near: record.createdAt).first(where: { $0.fingerprint == fingerprint && !claimed.contains($0.id) }) {
                claimed.insert(found.id)
                matches.presentRecords[index] = found.id
            }
        }
        var claimedRequests = Set<Int64>()
        for (index, request) in requests.enumerated() {
            if requestUIDs.indices.contains(index), let uid = requestUIDs[index], let id = try lookup.id(in: SQLFragment("request"), uid: uid) {
                claimedRequests.insert(id)
                matches.presentRequests[index] = id
                continue
            }
            let fingerprint = request.fingerprint
            if let found = try lookup.requests(near: request.createdAt).first(where: {
                $0.fingerprint == fingerprint && !claimedRequests.contains($0.id)
            }) {
                claimedRequests.insert(found.id)
                matches.presentRequests[index] = found.id
            }
        }
        return matches
    }

    /// The import without the records `matches` found present (their requests stay, by index).
    public func removing(present matches: ImportMatches) -> ImportedHistory {
        var kept = self
        kept.records = records.enumerated().filter { matches.presentRecords[$0.offset] == nil }.map(\.element)
        return kept
    }
}

/// What `history import` did: the records it added (their new ids, in the file's order), how
/// many it skipped because the store holds them already, and the requests it added.
public struct HistoryImportReport: Equatable, Sendable {
    public var recordIDs: [Int64]
    public var skippedRecords: Int
    public var addedRequests: Int

    public init(recordIDs: [Int64], skippedRecords: Int, addedRequests: Int) {
        self.recordIDs = recordIDs
        self.skippedRecords = skippedRecords
        self.addedRequests = addedRequests
    }
}
