import Domain
import Foundation

/// One statement both engines run, written once: its text in PostgreSQL's names
/// (`created_at`, `request_count`) with `$1`, `$2`… placeholders, and the values bound to them.
/// Each `\(value)` in a literal becomes the next placeholder and its value, never text:
///
///     let page: StoreSQL = "SELECT id FROM request WHERE status = \(status) LIMIT \(limit)"
///
/// The engines differ only in what their ``StatementSession`` does with it: PostgreSQL runs it
/// as written; SQLite (whose schema spells the same names in camelCase, `createdAt`, since its
/// first version) renames the identifiers first. `$1` is a parameter on both.
public struct StoreSQL: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// The statement's text, in PostgreSQL's names.
    public private(set) var text: String
    /// The values of `$1`, `$2`…, in order.
    public private(set) var binds: [SQLValue]
    /// Run again and again with the same text (the catalog import's batches of values, Done's
    /// capture, an import's questions for each record): an engine may keep it prepared, where
    /// preparing it each time would cost more than running it. Never one whose rows are still
    /// being read when it runs again (a kept statement is reset for its next run).
    public var isRepeated = false

    /// Literal text only (a `StaticString`): no text made at run time becomes SQL.
    public init(stringLiteral text: StaticString) {
        self.text = text.description
        binds = []
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        binds = stringInterpolation.binds
    }

    /// `parts` as a list, `first, second…` (a statement's VALUES rows): each part's placeholders
    /// numbered on from those before it.
    public init(list parts: [StoreSQL]) {
        text = ""
        binds = []
        for part in parts {
            if !text.isEmpty { text += ", " }
            text += part.renumbered(after: binds.count)
            binds += part.binds
        }
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var binds: [SQLValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 3 * interpolationCount)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: StaticString) {
            text += literal.description
        }

        /// A value: the next placeholder.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            binds.append(value.sqlValue)
            text += "$\(binds.count)"
        }

        /// A value that may be nil (bound as NULL): the next placeholder. Said apart from the
        /// one above so that Swift does not warn of an optional's debug description.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            binds.append(value.sqlValue)
            text += "$\(binds.count)"
        }

        /// Constant SQL (a column list, an engine's ` FOR UPDATE`): spliced as text.
        public mutating func appendInterpolation(_ fragment: SQLFragment) {
            text += fragment.text
        }

        /// Another statement's text and values (a condition, a clause): its placeholders
        /// numbered on from this one's.
        public mutating func appendInterpolation(_ part: StoreSQL) {
            text += part.renumbered(after: binds.count)
            binds += part.binds
        }
    }
}

extension StoreSQL {
    /// The text with each placeholder `$n` outside quotes as `$(n + offset)`, read as bytes
    /// (a catalog import renumbers every row of every batch).
    func renumbered(after offset: Int) -> String {
        guard offset > 0, !binds.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2 * binds.count)
        var quote: UInt8?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
                out.append(byte)
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                out.append(byte)
            } else if byte == UInt8(ascii: "$") {
                let end = bytes[index...].firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? bytes.count
                let digits = String(decoding: bytes[index..<end], as: UTF8.self)
                out += Array(("$" + (Int(digits).map { String($0 + offset) } ?? digits)).utf8)
                index = end
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension StoreSQL {
    /// Refuses a text value holding U+0000 before either engine sees it: SQLite would keep the
    /// text only up to it, and PostgreSQL refuses the statement. Both engines run this first.
    public func refuseNUL() throws(StorageError) {
        for case let .text(text) in binds where text.utf8.contains(0) {
            throw .invalidInput("A text holds a NUL character (U+0000), which tabshell cannot store.")
        }
    }
}

/// A value bound to a placeholder, as both engines take it.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// An instant: `timestamptz` on PostgreSQL, GRDB's `yyyy-MM-dd HH:mm:ss.SSS` text on SQLite.
    case time(Date)
    case boolean(Bool)
}

/// What a ``StoreSQL`` literal binds.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Date: SQLBindable { public var sqlValue: SQLValue { .time(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .boolean(self) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One row of an answer, read by column position. A NULL reads as nil; a value of another type
/// is an error (``StatementSession/unreadable(_:)``).
public protocol SQLRow {
    func integer(_ column: Int) throws(StorageError) -> Int64?
    func real(_ column: Int) throws(StorageError) -> Double?
    func text(_ column: Int) throws(StorageError) -> String?
    func time(_ column: Int) throws(StorageError) -> Date?
    func boolean(_ column: Int) throws(StorageError) -> Bool?
    func data(_ column: Int) throws(StorageError) -> Data?
}

/// One connection inside a read or a write of a ``StatementStore``: what the statements written
/// once need of an engine.
public protocol StatementSession {
    /// Calls `body` with each row `statement` returns, in order. A row is valid only during
    /// its call (SQLite's are the statement's own, not copies): read what is kept from it there.
    func forEachRow(_ statement: StoreSQL, _ body: (any SQLRow) throws(StorageError) -> Void) throws(StorageError)
    /// Runs `statement`; how many rows it inserted, updated or deleted.
    @discardableResult func execute(_ statement: StoreSQL) throws(StorageError) -> Int
    /// The sentence for a row this engine holds that the app cannot read ("… holds `what`
    /// tabshell cannot read."), naming the store.
    func unreadable(_ what: String) -> StorageError
    /// Where the engine's SQL differs beyond names.
    var dialect: SQLDialect { get }
}

/// What the two engines spell differently, beyond their names (which SQLite's session turns
/// into its own): the few fragments a statement written once takes from its session.
public struct SQLDialect: Sendable {
    /// ` FOR UPDATE` where a read inside a write must lock the rows it read (PostgreSQL); empty
    /// where the write already holds the whole store (SQLite's IMMEDIATE transaction).
    public let forUpdate: SQLFragment
    /// A request title as By request orders it, caselessly, the way its index holds it:
    /// SQLite's `request_on_title_id` is on `title COLLATE NOCASE` (ASCII case folded),
    /// PostgreSQL's `request_on_lower_title_id` on `lower(title)`. ``caselessOpen`` and
    /// ``caselessClose`` put a value in the same form.
    public let caselessTitle: SQLFragment
    public let caselessOpen: SQLFragment
    public let caselessClose: SQLFragment
    /// A catalog code in byte order (`code COLLATE "C"` on PostgreSQL, whose default collation
    /// is the locale's; SQLite's is bytes already).
    public let codeInByteOrder: SQLFragment
    /// `LIKE` without regard to case: SQLite's `LIKE` is (for ASCII), PostgreSQL's `ILIKE`.
    public let caselessLike: SQLFragment

    public static let sqlite = SQLDialect(
        forUpdate: SQLFragment(""), caselessTitle: SQLFragment("title COLLATE NOCASE"), caselessOpen: SQLFragment(""),
        caselessClose: SQLFragment(""), codeInByteOrder: SQLFragment("code"), caselessLike: SQLFragment("LIKE"))
    public static let postgres = SQLDialect(
        forUpdate: SQLFragment(" FOR UPDATE"), caselessTitle: SQLFragment("lower(title)"), caselessOpen: SQLFragment("lower("),
        caselessClose: SQLFragment(")"), codeInByteOrder: SQLFragment(#"code COLLATE "C""#), caselessLike: SQLFragment("ILIKE"))
}

/// Constant SQL text spliced into a ``StoreSQL`` literal: written in the source (a `StaticString`),
/// so never a value.
public struct SQLFragment: Sendable {
    public let text: String
    public init(_ text: StaticString) {
        self.text = "\(text)"
    }

    /// Two fragments as a list: `first, second`.
    public init(_ first: SQLFragment, _ second: SQLFragment) {
        text = first.text + ", " + second.text
    }
}

extension StatementSession {
    /// Each row `statement` returns, read by `read`.
    public func all<T>(_ statement: StoreSQL, _ read: (any SQLRow) throws(StorageError) -> T) throws(StorageError) -> [T] {
        var values: [T] = []
        try forEachRow(statement) { row throws(StorageError) in values.append(try read(row)) }
        return values
    }

    /// The first row `statement` returns, read by `read`; nil when there is none (or `read`
    /// gives nil). For statements of one row.
    public func first<T>(_ statement: StoreSQL, _ read: (any SQLRow) throws(StorageError) -> T?) throws(StorageError) -> T? {
        var value: T?
        var seen = false
        try forEachRow(statement) { row throws(StorageError) in
            guard !seen else { return }
            seen = true
            value = try read(row)
        }
        return value
    }

    /// The first column of the first row as a whole number; nil when there is no row or it is NULL.
    public func integer(_ statement: StoreSQL) throws(StorageError) -> Int64? {
        try first(statement) { row throws(StorageError) in try row.integer(0) }
    }
}

/// A store whose reads and writes go through ``StatementSession``s: the ``RecordStore`` calls
/// written once for both engines (StatementStore+Inbox.swift, StatementStore+Settings.swift…)
/// come with it.
public protocol StatementStore: RecordStore {
    /// Runs `body` on one consistent snapshot of the store.
    func reading<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T
    /// Runs `body` in one transaction, all or nothing, as this process's own write.
    func writing<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T
    /// Runs one statement's `body` on a connection, committed by itself (PostgreSQL saves the
    /// round trips of a transaction); the same as ``reading(_:)`` where that costs nothing more.
    func asking<T>(_ body: (any StatementSession) throws(StorageError) -> T) throws(StorageError) -> T
    /// The photos of the records whose ids are in `ids`, each record's in order, with their
    /// facts: the photo tables are each engine's own (files beside SQLite's database; content by
    /// hash in PostgreSQL).
    func photos(ofRecords ids: ClosedRange<Int64>, _ session: any StatementSession) throws(StorageError) -> [Int64: [RecordPhoto]]
    /// Makes `photos`' files readable at their ``ExportedRecord/path(of:)`` before the export
    /// hands their record on: on SQLite they are the store's own files; PostgreSQL fetches them
    /// into this host's photo cache through `session`.
    func exportFiles(of photos: [RecordPhoto], _ session: any StatementSession) throws(StorageError)
    /// History's search as this engine's full-text index answers it: statements for the words of
    /// `text` (``HistoryRows/columns``, newest first, at most `limit` rows), run in turn until
    /// one returns `limit` rows (PostgreSQL looks among the newest records before its whole
    /// index); empty when `text` has no word.
    func searchStatements(_ text: String, limit: Int) -> [StoreSQL]
    /// The folder of the store's photo files (and of its staging).
    var media: MediaStore { get }
    /// Of the photo files `storedNames`, whose rows the write on `session` deletes, those no
    /// row names any more: every one on SQLite (a file per photo row); on PostgreSQL those
    /// whose content no other record shows.
    func photoFilesFreed(by storedNames: [String], _ session: any StatementSession) throws(StorageError) -> [String]
    /// The photo files to look at when every record is deleted: SQLite's media files, the
    /// photos in PostgreSQL's cache on this host.
    func photoFilesBeforeDeletingAll(_ session: any StatementSession) throws(StorageError) -> [String]
    /// Removes freed photo files once their delete has committed: SQLite unlinks them from the
    /// media folder, PostgreSQL drops them from this host's cache.
    func removePhotoFiles(_ storedNames: [String])
}

extension StatementStore {
    /// Record `id`'s photos in order.
    public func photos(ofRecord id: Int64, _ session: any StatementSession) throws(StorageError) -> [RecordPhoto] {
        try photos(ofRecords: id...id, session)[id] ?? []
    }
}
