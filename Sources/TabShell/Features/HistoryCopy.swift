import CaptureMode
import Domain
import Foundation

/// What `y` and `Y` copy of a History record.
public enum HistoryCopy: Equatable, Sendable {
    /// `y`: the record's code (a batch's codes, one a line), or a note's text.
    case code
    /// `Y`: the record as `history export --format jsonl` writes it, one JSON line.
    case exportLine
}

/// The keys a copy's sentence names, as bound now ("Open the batch (Enter)…"); nil: unbound.
public struct HistoryCopyKeys: Equatable, Sendable {
    public var open: String?
    public var copyJSON: String?

    public static let standard = HistoryCopyKeys(open: "Enter", copyJSON: "Y")
}

extension HistoryState {
    /// `y`/`Y` on the highlighted record, or on the record whose detail shows.
    func copy(_ what: HistoryCopy, keys: HistoryCopyKeys = .standard) -> Outcome {
        let record = detail?.record ?? (stack.isEmpty ? row(at: list.cursor) : nil)
        guard let record else { return .none }
        switch what {
        case .exportLine:
            // The export's encoding is storage's: the runner reads and encodes the record.
            return .effects([.loadExportLine(record.id)])
        case .code:
            switch record.copyableText(lines: detail?.record.id == record.id ? detail?.lines : nil, keys: keys) {
            case let .text(text): return ClipboardCopy.copy(text)
            case let .unavailable(sentence): return .request(.status(StatusMessage(sentence)))
            }
        }
    }

    /// The runner's answer to `.loadExportLine`: the record's JSON line, nil when it is gone.
    func exportLineLoaded(id: Int64, line: String?) -> Outcome {
        guard let line else {
            return .request(.status(StatusMessage("Record #\(id) is no longer in History.", kind: .error)))
        }
        return ClipboardCopy.copy(line, label: "record #\(id) as JSON (\(Count.noun(line.utf8.count, "byte")))")
    }
}

/// What `y` finds to copy in a record.
enum CopyableText: Equatable {
    case text(String)
    /// Nothing to copy, and the sentence that says why.
    case unavailable(String)
}

extension HistoryRow {
    /// The code, else a batch's codes (from its detail's `lines`), else the note's text.
    func copyableText(lines: [BatchLine]?, keys: HistoryCopyKeys = .standard) -> CopyableText {
        let json = keys.copyJSON.map { "; \($0) copies the record as JSON." } ?? "."
        if let barcode, !barcode.value.isEmpty { return .text(barcode.value) }
        if kind == .batch {
            guard let lines, !lines.isEmpty else {
                return .unavailable("Open the batch\(keys.open.map { " (\($0))" } ?? "") to copy its codes" + json)
            }
            return .text(lines.map(\.barcode.value).joined(separator: "\n"))
        }
        if let note, !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .text(note) }
        return .unavailable("Record #\(id) has no code or text to copy" + json)
    }
}
