import Foundation
import Storage

extension AppDatabase {
    /// Every commit, whichever process makes it, writes the database's WAL (or, outside WAL
    /// mode, its main file): the kernel's news of such a write is the hint to read
    /// `PRAGMA data_version` now. Nil for an in-memory database or where inotify is not had.
    public func changeHints(_ hint: @escaping @Sendable () -> Void) -> ChangeHints? {
        guard url.isFileURL, url.path.hasPrefix("/") else { return nil }
        let name = url.lastPathComponent
        return FileChangeHints.watch(directory: url.deletingLastPathComponent().path, names: [name, name + "-wal"], hint: hint)
    }
}
