import CaptureMode
import Domain
import Foundation
import Storage
import TabShell

/// The text of `tabshell history export`, record by record, so the export streams: what comes
/// before, between and after the records (Storage's `JSONText` and `CSVText` write the records
/// themselves). The formats are documented in docs/export.md; change them only with a new `version`.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// One JSON object holding every record; CSV; JSON lines, one record object a line (what
    /// `--follow` writes, and what the on-commit command reads on its standard input).
    case json, csv, jsonl

    /// The version written in the JSON header; bump it when a field changes meaning or goes.
    public static let jsonVersion = ExportedRecord.formatVersion

    /// What comes before the first record.
    public func header(recordCount: Int, exportedAt: Date) -> String {
        switch self {
        case .json:
            "{\"format\":\"tabshell-history\",\"version\":\(Self.jsonVersion),"
                + "\"exportedAt\":\(JSONString.quoted(ExportTime.string(exportedAt))),"
                + "\"recordCount\":\(recordCount),\"records\":["
        case .csv:
            CSVText.row(CSVText.columns)
        case .jsonl:
            ""
        }
    }

    /// One record; `index` is its position in the export (0 for the first).
    public func record(_ record: ExportedRecord, index: Int) -> String {
        switch self {
        case .json: (index == 0 ? "\n" : ",\n") + JSONText.record(record)
        case .csv: CSVText.record(record)
        case .jsonl: JSONText.record(record) + "\n"
        }
    }

    /// What comes after the last record.
    public func footer(recordCount: Int) -> String {
        switch self {
        case .json: (recordCount == 0 ? "" : "\n") + "]}\n"
        case .csv, .jsonl: ""
        }
    }
}
