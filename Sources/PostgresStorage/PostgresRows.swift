import Domain
import Foundation
import PostgresNIO
import Storage

/// The PostgreSQL engine's statements for settings, requests and records, and the decoding of
/// their rows into the app's values. A row that cannot be read is one sentence, never a crash.
enum PostgresRows {
    // MARK: - Records

    /// The columns of a History row, from `capture` joined to its request (SQLite's
    /// `HistoryQueries.rowSelection` with PostgreSQL's names).
    // sql-fragment
    static let rowSelection = PostgresQueries.rowSelection

    static func historyRow(id: Int64) -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(id)
        return PostgresQuery(unsafeSQL: rowSelection + "\nWHERE capture.id = $1", binds: bindings)
    }

    static func historyRow(_ row: PostgresRow, _ location: PostgresLocation) throws(StorageError) -> HistoryRow {
        let cells = row.makeRandomAccess()
        do {
            guard let kind = CaptureKind(rawValue: try cells["kind"].decode(String.self)) else {
                throw unreadable("a record", location)
            }
            var code: Barcode?
            if let value = try cells["barcode"].decode(String?.self), let name = try cells["symbology"].decode(String?.self) {
                guard let symbology = Symbology(rawValue: name) else { throw unreadable("a record", location) }
                code = Barcode(value: value, symbology: symbology)
            }
            let productName = try cells["product_name"].decode(String?.self)
            let productBrand = try cells["product_brand"].decode(String?.self)
            return HistoryRow(
                id: try cells["id"].decode(Int64.self), kind: kind, barcode: code, note: try cells["note"].decode(String?.self),
                requestID: try cells["request_id"].decode(Int64?.self), requestTitle: try cells["request_title"].decode(String?.self),
                createdAt: try cells["created_at"].decode(Date.self), capturedBy: try cells["captured_by"].decode(String?.self),
                requester: try cells["requester"].decode(String?.self),
                product: productName.map { Product(name: $0, brand: productBrand) },
                photoCount: try cells["photo_count"].decode(Int.self), firstPhotoName: try cells["first_photo_name"].decode(String?.self),
                batchCodes: try cells["batch_codes"].decode(Int.self), batchScans: try cells["batch_scans"].decode(Int.self),
                requestAfterDeletion: try cells["request_after_deletion"].decode(String?.self).flatMap(RequestAfterDeletion.init(rawValue:)))
        } catch let error as StorageError {
            throw error
        } catch {
            throw unreadable("a record", location)
        }
    }

    /// A record's photos in order, with the facts of their content.
    static func photos(of captureID: Int64) -> PostgresQuery {
        """
        SELECT capture_photo.position, capture_photo.original_name, encode(capture_photo.sha256, 'hex') AS hash,
               photo_content.format, photo_content.pixel_width, photo_content.pixel_height, photo_content.byte_size
        FROM capture_photo JOIN photo_content ON photo_content.sha256 = capture_photo.sha256
        WHERE capture_photo.capture_id = \(captureID) ORDER BY capture_photo.position
        """
    }

    static func photo(_ row: PostgresRow, captureID: Int64, _ location: PostgresLocation) throws(StorageError) -> RecordPhoto {
        let cells = row.makeRandomAccess()
        do {
            guard let format = ImageFormat(rawValue: try cells["format"].decode(String.self)) else {
                throw unreadable("a photo", location)
            }
            let position = try cells["position"].decode(Int.self)
            let hash = try cells["hash"].decode(String.self)
            return RecordPhoto(
                // Unique per record and position (a photo shared by records has one content row).
                id: captureID &* 1000 &+ Int64(position), position: position,
                originalName: try cells["original_name"].decode(String.self), format: format,
                pixelWidth: try cells["pixel_width"].decode(Int.self), pixelHeight: try cells["pixel_height"].decode(Int.self),
                byteSize: try cells["byte_size"].decode(Int64.self), storedName: PhotoCache.storedName(hash: hash, format: format))
        } catch let error as StorageError {
            throw error
        } catch {
            throw unreadable("a photo", location)
        }
    }

    static func unreadable(_ what: String, _ location: PostgresLocation) -> StorageError {
        .sql("PostgreSQL at \(location.server) holds \(what) tabshell cannot read.")
    }
}

/// PostgreSQL's answers to History's walk (``HistoryWalk``): keyset statements along the v1
/// schema's indexes. A key's place is its record's `(created_at, id)`, read on the server from
/// the record's id, so no timestamp makes a round trip through `Date`.
struct PostgresHistorySource: HistoryWalkSource {
    let session: PostgresSession

    /// The WHERE text selecting `group`'s captures, its value bound as the next placeholder.
    private static func condition(of group: HistoryGroup, _ bindings: inout PostgresBindings) -> String {
        func next(_ value: some PostgresNonThrowingEncodable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        }
        // sql-fragment: constant WHERE text with placeholders
        switch group {
        case .all: return "TRUE"
        case let .kind(kind): return "capture.kind = " + next(kind.rawValue)
        case let .request(id, _): return "capture.request_id = " + next(id)
        case .noRequest: return "capture.request_id IS NULL"
        case let .requester(name): return "capture.requester = " + next(name)
        case .noRequester: return "capture.requester IS NULL"
        }
    }

    /// The keyset condition past record `id` in `direction`.
    private static func past(_ id: Int64, _ direction: HistoryDirection, _ bindings: inout PostgresBindings) -> String {
        bindings.append(id)
        let placeholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        let comparison = direction == .forward ? "<" : ">"  // sql-fragment
        return " AND (capture.created_at, capture.id) \(comparison) ((SELECT created_at FROM capture WHERE id = \(placeholder)), \(placeholder))"
    }

    func rows(of group: HistoryGroup, after: (stamp: Int64, id: Int64)?, _ direction: HistoryDirection, limit: Int, offset: Int)
        throws -> [PostgresRow]
    {
        var bindings = PostgresBindings()
        var sql = Self.condition(of: group, &bindings)  // sql-fragment: conditions with placeholders
        if let after { sql += Self.past(after.id, direction, &bindings) }
        // sql-fragment: constant orders
        let order = direction == .forward ? "capture.created_at DESC, capture.id DESC" : "capture.created_at ASC, capture.id ASC"
        bindings.append(Int64(limit))
        let limitPlaceholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        bindings.append(Int64(offset))
        let offsetPlaceholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        return try session.rows(
            PostgresQuery(
                unsafeSQL: PostgresRows.rowSelection + "\nWHERE \(sql)\nORDER BY \(order)\nLIMIT \(limitPlaceholder) OFFSET \(offsetPlaceholder)",
                binds: bindings))
    }

    func rowCount(of group: HistoryGroup, after: (stamp: Int64, id: Int64)?, _ direction: HistoryDirection, atMost limit: Int) throws
        -> Int
    {
        var bindings = PostgresBindings()
        var sql = Self.condition(of: group, &bindings)  // sql-fragment: conditions with placeholders
        if let after { sql += Self.past(after.id, direction, &bindings) }
        bindings.append(Int64(limit))
        let limitPlaceholder = "$\(bindings.count)"  // sql-fragment: a placeholder, never a value
        return try session.value(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM (SELECT 1 FROM capture WHERE \(sql) LIMIT \(limitPlaceholder)) AS counted", binds: bindings),
            as: Int.self) ?? 0
    }

    func requestGroup(after group: HistoryGroup?, _ direction: HistoryDirection) throws -> HistoryGroup? {
        // sql-fragment: constant operators and orders
        let (comparison, order) = direction == .forward ? (">", "lower(title) ASC, id ASC") : ("<", "lower(title) DESC, id DESC")
        var bindings = PostgresBindings()
        // sql-fragment: constant text with placeholders
        var sql = "SELECT id, title FROM request WHERE EXISTS (SELECT 1 FROM capture WHERE capture.request_id = request.id)"
        if case let .request(id, title)? = group {
            bindings.append(title)
            bindings.append(id)
            sql += " AND (lower(title), id) \(comparison) (lower($1), $2)"
        }
        guard let row = try session.rows(PostgresQuery(unsafeSQL: sql + " ORDER BY \(order) LIMIT 1", binds: bindings)).first,
            let (id, title) = try? row.decode((Int64, String).self)
        else { return nil }
        return .request(id: id, title: title)
    }

    func requesterGroup(after group: HistoryGroup?, _ direction: HistoryDirection) throws -> HistoryGroup? {
        // sql-fragment: constant operators and orders
        let (comparison, order) = direction == .forward ? (">", "ASC") : ("<", "DESC")
        var bindings = PostgresBindings()
        // sql-fragment: constant text with placeholders
        var sql = "SELECT requester FROM capture WHERE requester IS NOT NULL"
        if case let .requester(name)? = group {
            bindings.append(name)
            sql += " AND requester \(comparison) $1"
        }
        guard let name = try session.value(PostgresQuery(unsafeSQL: sql + " ORDER BY requester \(order) LIMIT 1", binds: bindings), as: String.self)
        else { return nil }
        return .requester(name)
    }

    func key(of id: Int64, in mode: HistoryBrowseMode) throws -> (group: HistoryGroup, stamp: Int64, id: Int64)? {
        let query: PostgresQuery = """
            SELECT capture.kind, capture.request_id, request.title, capture.requester
            FROM capture LEFT JOIN request ON request.id = capture.request_id WHERE capture.id = \(id)
            """
        guard let row = try session.rows(query).first,
            let (kindName, requestID, title, requester) = try? row.decode((String, Int64?, String?, String?).self)
        else { return nil }
        let group: HistoryGroup
        switch mode {
        case .all:
            group = .all
        case .byKind:
            guard let kind = CaptureKind(rawValue: kindName) else { return nil }
            group = .kind(kind)
        case .byRequest:
            if let requestID, let title { group = .request(id: requestID, title: title) } else { group = .noRequest }
        case .byRequester:
            group = requester.map(HistoryGroup.requester) ?? .noRequester
        }
        return (group, id, id)
    }

    func row(id: Int64) throws -> PostgresRow? {
        try session.rows(PostgresRows.historyRow(id: id)).first
    }
}
