import Domain
import Foundation

/// One group of a History browse mode's order.
///
/// Every browse mode is a sequence of groups (one for All, one per kind, one per request and
/// then the records without one, one per requester and then the records without one), each
/// read newest first along an index that starts with the group's column and ends with
/// `(createdAt DESC, id DESC)`.
public enum HistoryGroup: Equatable, Sendable {
    case all
    case kind(CaptureKind)
    /// The captures answering one request; `title` places the group (By request order).
    case request(id: Int64, title: String)
    case noRequest
    /// The captures whose request came from this requester (By requester order: by name).
    case requester(String)
    /// The captures of requests without a requester, and those answering no request.
    case noRequester
}

/// Which way a walk goes along a mode's order.
public enum HistoryDirection: Sendable {
    /// Towards the end of the list (older records, later groups).
    case forward
    /// Towards the top.
    case backward
}

/// History's pages as a walk along a browse mode's groups from a known place (a record's key,
/// or either end), forward or backward: a keyset read that never counts or sorts the table.
/// The same on every engine: the statements are Storage's (``HistoryStatements``).
public struct HistoryWalk {
    /// A record's place: its group, and its id (its place in its group).
    public typealias Key = (group: HistoryGroup, id: Int64)
    let source: HistoryStatements

    /// The records at `positions` (inside `0 ..< total`) of `mode`, read from the nearest of
    /// the top, the bottom and `anchor`. An anchor whose record is gone is ignored.
    public func rows(_ mode: HistoryBrowseMode, at positions: Range<Int>, total: Int, anchor: HistoryAnchor?) throws(StorageError) -> [HistoryRow] {
        let limit = positions.count
        let fromTop = positions.lowerBound
        let fromBottom = total - positions.upperBound
        var anchorKey: (key: Key, position: Int, cost: Int)?
        if let anchor, (0..<total).contains(anchor.position), let key = try source.key(of: anchor.recordID, in: mode) {
            let position = anchor.position
            let cost =
                positions.lowerBound > position
                ? positions.lowerBound - position - 1
                : max(0, position - positions.upperBound)
            anchorKey = (key, position, cost)
        }
        if let anchorKey, anchorKey.cost < min(fromTop, fromBottom) {
            let (key, position, _) = anchorKey
            if positions.lowerBound > position {
                return try walk(mode, from: key, .forward, skip: positions.lowerBound - position - 1, limit: limit)
            }
            if positions.upperBound <= position {
                return try walk(mode, from: key, .backward, skip: position - positions.upperBound, limit: limit).reversed()
            }
            // The page holds the anchor: the rows before it, the anchor, the rows after it.
            let before = try walk(mode, from: key, .backward, skip: 0, limit: position - positions.lowerBound)
            let after = try walk(mode, from: key, .forward, skip: 0, limit: positions.upperBound - position - 1)
            let anchorRow = try source.row(id: key.id)
            return before.reversed() + (anchorRow.map { [$0] } ?? []) + after
        }
        if fromTop <= fromBottom {
            return try walk(mode, from: nil, .forward, skip: fromTop, limit: limit)
        }
        return try walk(mode, from: nil, .backward, skip: fromBottom, limit: limit).reversed()
    }

    /// Up to `limit` records after (or, backward, before) `key` in `mode`'s order, after
    /// skipping `skip` of them; from the top (or the bottom) when `key` is nil. Backward walks
    /// return the nearest record first.
    public func walk(_ mode: HistoryBrowseMode, from key: Key?, _ direction: HistoryDirection, skip: Int, limit: Int)
        throws(StorageError) -> [HistoryRow]
    {
        guard limit > 0 else { return [] }
        var group: HistoryGroup? = if let key { key.group } else { try firstGroup(mode, direction) }
        var after = key?.id
        var skip = skip
        var records: [HistoryRow] = []
        while let current = group, records.count < limit {
            let found = try source.rows(of: current, after: after, direction, limit: limit - records.count, offset: skip)
            if found.isEmpty, skip > 0 {
                // The whole rest of this group was skipped: count it (at most `skip` rows).
                skip -= try source.rowCount(of: current, after: after, direction, atMost: skip)
            } else {
                skip = 0
            }
            records += found
            group = try neighbour(of: current, in: mode, direction)
            after = nil
        }
        return records
    }

    /// The group a walk in `direction` starts with when it starts at an end of the list.
    func firstGroup(_ mode: HistoryBrowseMode, _ direction: HistoryDirection) throws(StorageError) -> HistoryGroup? {
        switch (mode, direction) {
        case (.all, _): .all
        case (.byKind, .forward): CaptureKind.allCases.first.map(HistoryGroup.kind)
        case (.byKind, .backward): CaptureKind.allCases.last.map(HistoryGroup.kind)
        case (.byRequest, .forward): try source.requestGroup(after: nil, .forward) ?? .noRequest
        case (.byRequest, .backward): .noRequest
        case (.byRequester, .forward): try source.requesterGroup(after: nil, .forward) ?? .noRequester
        case (.byRequester, .backward): .noRequester
        }
    }

    /// The group after (or before) `group` in `mode`'s order.
    func neighbour(of group: HistoryGroup, in mode: HistoryBrowseMode, _ direction: HistoryDirection) throws(StorageError)
        -> HistoryGroup?
    {
        switch group {
        case .all:
            return nil
        case let .kind(kind):
            let kinds = CaptureKind.allCases
            guard let index = kinds.firstIndex(of: kind) else { return nil }
            let next = direction == .forward ? kinds.index(after: index) : index - 1
            return kinds.indices.contains(next) ? .kind(kinds[next]) : nil
        case .request:
            let next = try source.requestGroup(after: group, direction)
            return direction == .forward ? next ?? .noRequest : next
        case .noRequest:
            return direction == .forward ? nil : try source.requestGroup(after: nil, .backward)
        case .requester:
            let next = try source.requesterGroup(after: group, direction)
            return direction == .forward ? next ?? .noRequester : next
        case .noRequester:
            return direction == .forward ? nil : try source.requesterGroup(after: nil, .backward)
        }
    }
}
