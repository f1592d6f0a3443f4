import Foundation
import GRDB
import Storage

extension StorageError {
    /// Maps any error thrown while opening the database at `path` to a sentence naming the path.
    static func opening(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        guard let error = error as? DatabaseError else {
            return .sql("Cannot open \(path): \(error.localizedDescription).")
        }
        switch error.resultCode {
        case .SQLITE_NOTADB: return .cannotOpen(path: path, reason: "the file is not a SQLite database")
        case .SQLITE_CORRUPT: return .cannotOpen(path: path, reason: "the database is damaged")
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path)
        case .SQLITE_PERM, .SQLITE_AUTH: return .cannotOpen(path: path, reason: "permission denied")
        case .SQLITE_READONLY: return .cannotOpen(path: path, reason: "the file or its folder is read-only")
        case .SQLITE_CANTOPEN: return .cannotOpen(path: path, reason: "the file or its folder cannot be opened")
        case .SQLITE_FULL: return .cannotOpen(path: path, reason: "the disk is full")
        case .SQLITE_IOERR: return .cannotOpen(path: path, reason: "a disk read or write failed")
        default: return .sql("Cannot open \(path): \(error.sentenceFragment).")
        }
    }

    /// Maps any error thrown by a read or write on the open database at `path`.
    static func operation(_ error: any Error, path: String) -> StorageError {
        if let error = error as? StorageError { return error }
        guard let error = error as? DatabaseError else {
            return .sql("The database \(path) failed: \(error.localizedDescription).")
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .locked(path: path)
        case .SQLITE_CONSTRAINT:
            return .sql("The database \(path) refused the change (\(error.sentenceFragment)).")
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .sql("The database \(path) is damaged (\(error.sentenceFragment)).")
        case .SQLITE_READONLY:
            return .sql("The database \(path) is read-only.")
        case .SQLITE_FULL:
            return .sql("The database \(path) cannot grow: the disk is full.")
        default:
            return .sql("The database \(path) failed: \(error.sentenceFragment).")
        }
    }
}

extension DatabaseError {
    /// SQLite's own message without a trailing period, so it fits inside a sentence.
    fileprivate var sentenceFragment: String {
        let text = message ?? "\(resultCode)"
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
