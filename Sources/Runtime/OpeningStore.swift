import Storage
import Synchronization

/// A session's store, which may still be opening when the first frame is drawn.
///
/// The app starts its loop before the store answers (a PostgreSQL server that is slow or has
/// stopped answering must not hold the screen): `open()` runs once on the session's storage
/// queue, and every other use reads ``opened`` or calls ``store()``, which never waits for
/// the open — before it has succeeded they fail at once, with the last open's failure, or the
/// connecting sentence while the first open is under way.
public final class OpeningStore: Sendable {
    /// What the heading and the log call the store ("~/.local/share/tabshell/tabshell.sqlite",
    /// "postgres://ada@db:5432").
    public let displayName: String
    private let opener: @Sendable () throws(StorageError) -> any RecordStore
    private let current = Mutex<(any RecordStore)?>(nil)
    /// Why the last open failed, until one succeeds.
    private let lastFailure = Mutex<StorageError?>(nil)

    /// A store that `open` opens, on the storage queue, when the session starts.
    public init(displayName: String, open: @escaping @Sendable () throws(StorageError) -> any RecordStore) {
        self.displayName = displayName
        opener = open
    }

    /// A store already open (the demo's file, the commands, the tests).
    public convenience init(_ store: any RecordStore) {
        self.init(displayName: store.displayName) { () throws(StorageError) in store }
        current.withLock { $0 = store }
    }

    /// The store once it has opened, nil until then.
    public var opened: (any RecordStore)? { current.withLock { $0 } }

    /// The sentence a storage call gets while the first open is under way.
    var connectingSentence: String { "Still connecting to \(displayName)\u{2026}" }

    /// Opens the store, or hands back the one already open; a failure is thrown and the next
    /// call tries again. Called from one queue only (the session's storage queue).
    func open() throws(StorageError) -> any RecordStore {
        if let opened { return opened }
        do {
            let opened = try opener()
            current.withLock { $0 = opened }
            lastFailure.withLock { $0 = nil }
            return opened
        } catch {
            lastFailure.withLock { $0 = error }
            throw error
        }
    }

    /// The open store; before it has opened, at once (never a wait) why not: the last open's
    /// failure, or the connecting sentence while the first is under way.
    func store() throws(StorageError) -> any RecordStore {
        guard let opened else { throw lastFailure.withLock { $0 } ?? .unreachable(connectingSentence) }
        return opened
    }
}
