import Foundation

/// Why a storage operation failed. Every case reads as one sentence through ``message``,
/// ready to show on screen or print on the command line.
public enum StorageError: Error, Equatable, Sendable {
    /// A folder or file could not be created; `reason` is a lower-case phrase such as "permission denied".
    case cannotCreate(path: String, reason: String)
    /// An existing file could not be opened as a tabshell database; nothing was changed in it.
    case cannotOpen(path: String, reason: String)
    /// Another program holds a lock on the database for longer than the busy timeout.
    case locked(path: String)
    /// The database was migrated by a newer tabshell; `version` is its newest schema version, such as "v5".
    case newerSchema(path: String, version: String)
    /// The input was refused before touching the database; the associated value is the sentence.
    case invalidInput(String)
    /// A capture names an Inbox request that is not in the database.
    case requestNotFound(id: Int64)
    /// Any other database failure; the associated value is the sentence.
    case sql(String)
    /// A file the user chose cannot be staged as a photo (not an image, too big, not a regular
    /// file, changed while it was copied…); the associated value is the sentence.
    case fileRefused(String)
    /// A file or folder operation on tabshell's own files failed (disk full, permission denied…);
    /// the associated value is the sentence.
    case fileSystem(String)
    /// The user cancelled a copy through its progress callback; nothing was staged.
    case cancelled
    /// The staging session was already committed, discarded or closed.
    case stagingClosed
    /// The draft is open in another tabshell session, or was already resumed or discarded.
    case draftUnavailable
    /// A database server could not be reached (PostgreSQL): the whole sentence, naming the
    /// server and the reason, never a password. What was being done can be done again later.
    case unreachable(String)

    /// One user-readable sentence describing the failure.
    public var message: String {
        switch self {
        case let .cannotCreate(path, reason): "Cannot create \(path): \(reason)."
        case let .cannotOpen(path, reason): "Cannot open \(path): \(reason)."
        case let .locked(path): "The database \(path) is locked by another program; try again."
        case let .newerSchema(path, version):
            "The database \(path) was made by a newer tabshell (schema \(version)); upgrade tabshell."
        case let .invalidInput(sentence), let .sql(sentence), let .fileRefused(sentence), let .fileSystem(sentence),
            let .unreachable(sentence):
            sentence
        case .requestNotFound: "The request this capture answers no longer exists."
        case .cancelled: "The copy was cancelled."
        case .stagingClosed: "This capture was already closed."
        case .draftUnavailable: "This unfinished capture is open in another tabshell session or was already resumed."
        }
    }
}

extension StorageError: CustomStringConvertible {
    /// The same sentence as ``message``.
    public var description: String { message }
}
