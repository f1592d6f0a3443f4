import Foundation

/// The victims' journal replayed: which commits must be in the database.
struct CrashJournal {
    var acknowledged = 0
    /// Acknowledged commits that no delete or clear may have removed.
    var surelyAlive = Set<Int64>()

    init(path: String) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            switch (parts.first, parts.count == 2 ? Int64(parts[1]) : nil) {
            case let ("c", id?):
                acknowledged += 1
                surelyAlive.insert(id)
            case let ("d?", id?):
                surelyAlive.remove(id)
            case ("x?", _):
                surelyAlive.removeAll()
            default:
                break
            }
        }
    }
}
