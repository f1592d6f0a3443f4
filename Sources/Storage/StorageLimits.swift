import Domain
import Foundation

/// The domain's limits and the sentences that refuse what passes them, written once: every
/// engine checks them before it writes (or reads a search), so both refuse the same input with
/// the same sentence. Request and capture checks are ``RequestLimits``.
public enum StorageLimits {
    /// The longest request title a store accepts, in characters.
    public static let maximumTitleLength = 500
    /// The longest request body a store accepts, in characters.
    public static let maximumBodyLength = 10_000
    /// The longest note a capture can have, in characters.
    public static let maximumNoteLength = 10_000
    /// The longest requester name (`--from`, `from`) and name of who captured or added.
    public static let maximumRequesterLength = 64
    /// The longest text a History search accepts, in characters.
    public static let maximumSearchLength = 1_000
    /// The allowed range of ``Settings/autoAdvanceMilliseconds``.
    public static let autoAdvanceRange = 0...60_000

    /// `name` as a requester is stored: trimmed, 1 to 64 characters, no control characters (it
    /// is shown on screens and in tables); or the sentence saying what is wrong with it.
    public static func requesterName(_ name: String) -> Result<String, StorageError> {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .failure(.invalidInput("A requester name must not be empty.")) }
        if trimmed.count > maximumRequesterLength {
            return .failure(.invalidInput("A requester name can have at most \(maximumRequesterLength) characters."))
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.invalidInput("A requester name must not contain control characters."))
        }
        return .success(trimmed)
    }

    /// Checks settings before they are saved.
    public static func validate(_ settings: Settings) throws(StorageError) {
        guard autoAdvanceRange.contains(settings.autoAdvanceMilliseconds) else {
            throw .invalidInput(
                "Auto-advance must be between \(autoAdvanceRange.lowerBound) and \(autoAdvanceRange.upperBound) milliseconds.")
        }
    }

    /// A History search's text as the engines look it up (trimmed), once its length is checked.
    public static func searchText(_ query: String) throws(StorageError) -> String {
        let text = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= maximumSearchLength else {
            throw .invalidInput("A search can have at most \(maximumSearchLength) characters.")
        }
        return text
    }
}

extension HistoryPageRequest {
    /// Where the page lies among `total` records: `start` clamped to the last record (0 when
    /// there are none), and the positions to read, empty when none are asked for or there are
    /// no records.
    public func window(total: Int) -> (start: Int, positions: Range<Int>) {
        let start = min(max(self.start, 0), max(total - 1, 0))
        let count = max(self.count, 0)
        guard count > 0, total > 0 else { return (start, start..<start) }
        return (start, start..<min(total, start + count))
    }
}

extension StorageError {
    /// A photo name no engine could have given (previews ask by the name a record holds).
    public static func notAStoredPhoto(_ storedName: String) -> StorageError {
        .invalidInput("\(storedName) is not the name of a stored photo.")
    }
}
