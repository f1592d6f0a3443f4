import CaptureMode
import Foundation
import Storage
import TabShell

#if canImport(Glibc)
import Glibc
#endif

/// The text of `tabshell history export`, record by record, so the export streams. The formats
/// are documented in docs/export.md; change them only with a new `version`.
enum ExportFormat: String, CaseIterable, Sendable {
    /// One JSON object holding every record; CSV; JSON lines, one record object a line (what
    /// `--follow` writes, and what the on-commit command reads on its standard input).
    case json, csv, jsonl

    /// The version written in the JSON header; bump it when a field changes meaning or goes.
    static let jsonVersion = 1

    /// The CSV columns, in order.
    static let csvColumns = [
        "id", "kind", "created_at", "barcode", "symbology", "note",
        "request_id", "request_title", "request_status",
        "photo_count", "photo_paths", "photo_formats", "photo_sizes", "photo_bytes",
        "gtin", "lot", "expiry", "serial",
        "captured_by", "request_from", "product_name", "product_brand",
    ]

    /// What comes before the first record.
    func header(recordCount: Int, exportedAt: Date) -> String {
        switch self {
        case .json:
            "{\"format\":\"tabshell-history\",\"version\":\(Self.jsonVersion),"
                + "\"exportedAt\":\(JSONText.string(ExportTime.string(exportedAt))),"
                + "\"recordCount\":\(recordCount),\"records\":["
        case .csv:
            CSVText.row(Self.csvColumns)
        case .jsonl:
            ""
        }
    }

    /// One record; `index` is its position in the export (0 for the first).
    func record(_ record: ExportedRecord, index: Int) -> String {
        switch self {
        case .json: (index == 0 ? "\n" : ",\n") + JSONText.record(record)
        case .csv: CSVText.record(record)
        case .jsonl: JSONText.record(record) + "\n"
        }
    }

    /// What comes after the last record.
    func footer(recordCount: Int) -> String {
        switch self {
        case .json: (recordCount == 0 ? "" : "\n") + "]}\n"
        case .csv, .jsonl: ""
        }
    }
}

/// Times in exports: UTC, ISO 8601 with milliseconds, e.g. `2025-06-15T15:06:40.000Z`.
enum ExportTime {
    static func string(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let totalSeconds = Int(floor(milliseconds / 1000))
        let millis = Int(milliseconds) - totalSeconds * 1000
        var seconds = time_t(totalSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2)
            + "T" + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2)
            + "." + pad(Int32(millis), 3) + "Z"
    }

    static func string(_ date: Date?) -> String? { date.map { string($0) } }
}

/// JSON text written by hand, so keys keep a fixed order and one record is one line.
enum JSONText {
    static func string(_ text: String) -> String {
        // Most strings need no escape: one pass over the bytes, then copy them whole.
        guard text.utf8.contains(where: needsEscape) else { return "\"" + text + "\"" }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Bytes that may need an escape: controls, `"`, `\\`, DEL, 0xC2 (the first byte of the C1
    /// controls U+0080–U+009F) and 0xE2 (of U+2028 and U+2029); the slow path checks in full.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        if byte < 0x20 { return true }
        switch byte {
        case 0x22, 0x5C, 0x7F, 0xC2, 0xE2: return true
        default: return false
        }
    }

    static func optional(_ text: String?) -> String { text.map(string) ?? "null" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func record(_ record: ExportedRecord) -> String {
        object([
            ("id", String(record.id)),
            ("kind", string(record.kind.rawValue)),
            ("createdAt", string(ExportTime.string(record.createdAt))),
            ("capturedBy", optional(record.capturedBy)),
            ("barcode", record.barcode.map(barcode) ?? "null"),
            ("product", record.product.map { object([("name", string($0.name)), ("brand", optional($0.brand))]) } ?? "null"),
            ("note", optional(record.note)),
            ("request", record.request.map(request) ?? "null"),
            ("photos", "[" + record.photos.map { photo($0, path: record.path(of: $0)) }.joined(separator: ",") + "]"),
        ])
    }

    /// The code, and GS1 data's fields by AI (`"gs1":{"01":"09506000134352","17":"2020-12-25"}`).
    static func barcode(_ barcode: Barcode) -> String {
        var fields = [("value", string(barcode.value)), ("symbology", string(barcode.symbology.rawValue))]
        let elements = barcode.value.hasPrefix("(") ? barcode.reading.elements : []
        if !elements.isEmpty {
            fields.append(("gs1", object(elements.map { ($0.ai, string($0.value.text)) })))
        }
        return object(fields)
    }

    static func request(_ request: InboxRequest) -> String {
        object([
            ("id", String(request.id)),
            ("title", string(request.title)),
            ("body", string(request.body)),
            ("kind", string(request.kind.rawValue)),
            ("status", string(request.status.rawValue)),
            ("createdAt", string(ExportTime.string(request.createdAt))),
            ("doneAt", optional(ExportTime.string(request.doneAt))),
            ("createdBy", optional(request.createdBy)),
            ("from", optional(request.requester)),
        ])
    }

    static func photo(_ photo: RecordPhoto, path: String) -> String {
        object([
            ("position", String(photo.position)),
            ("path", string(path)),
            ("originalName", string(photo.originalName)),
            ("format", string(photo.format.rawValue)),
            ("pixelWidth", String(photo.pixelWidth)),
            ("pixelHeight", String(photo.pixelHeight)),
            ("byteSize", String(photo.byteSize)),
        ])
    }
}

/// CSV per RFC 4180: CRLF after every row, a field quoted when it holds `,` `"` CR or LF, and a
/// `"` inside a quoted field doubled. A record's several photos share one row: their paths,
/// formats, `WxH` sizes and byte sizes are each joined with `;`.
enum CSVText {
    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }) else {
            return text
        }
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func record(_ record: ExportedRecord) -> String {
        row(
            [
                String(record.id),
                record.kind.rawValue,
                ExportTime.string(record.createdAt),
                record.barcode?.value ?? "",
                record.barcode?.symbology.rawValue ?? "",
                record.note ?? "",
                record.request.map { String($0.id) } ?? "",
                record.request?.title ?? "",
                record.request?.status.rawValue ?? "",
                String(record.photos.count),
                record.photos.map(record.path(of:)).joined(separator: ";"),
                record.photos.map(\.format.rawValue).joined(separator: ";"),
                record.photos.map { "\($0.pixelWidth)x\($0.pixelHeight)" }.joined(separator: ";"),
                record.photos.map { String($0.byteSize) }.joined(separator: ";"),
            ] + gs1Columns(record.barcode) + [
                record.capturedBy ?? "", record.request?.requester ?? "", record.product?.name ?? "", record.product?.brand ?? "",
            ])
    }

    /// GTIN, lot, expiry (as a date) and serial of GS1 data; empty for other codes.
    static func gs1Columns(_ barcode: Barcode?) -> [String] {
        guard let barcode, barcode.value.hasPrefix("(") else { return ["", "", "", ""] }
        let reading = barcode.reading
        return [reading.gtin ?? "", reading.lot ?? "", reading.element("17")?.value.text ?? "", reading.serial ?? ""]
    }
}

extension CSVText {
    /// CSV bound for a terminal: control characters other than tab, CR and LF (which CSV
    /// needs) become visible symbols, so data can never send the terminal an escape sequence.
    /// Redirected output keeps the exact bytes.
    static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafeOnTerminal) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isUnsafeOnTerminal(scalar) else {
                out.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F: out.append("\u{2421}")
            default: out.append("\u{FFFD}")
            }
        }
        return String(out)
    }

    private static func isUnsafeOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\r" && scalar != "\n" && Sanitizer.isUnsafe(scalar)
    }
}
