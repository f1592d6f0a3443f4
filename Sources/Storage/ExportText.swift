import Domain
import Foundation

// The text of `tabshell history export` (JSON, JSON lines, CSV), of `history list --json`, of
// `--follow` and of the on-commit command's input, written record by record so an export
// streams; and the decoding `history import` needs to read it back (``HistoryImport``). The
// encoders and that decoding live in one module so they cannot drift apart. docs/export.md has
// the formats; change them only with a new `version`.

/// Times in exports: UTC, ISO 8601 with milliseconds, e.g. `2025-06-15T15:06:40.000Z`.
public enum ExportTime {
    public static func string(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let totalSeconds = Int(floor(milliseconds / 1000))
        let millis = Int(milliseconds) - totalSeconds * 1000
        var seconds = time_t(totalSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min,
            parts.tm_sec, Int32(millis))
    }

    public static func string(_ date: Date?) -> String? { date.map { string($0) } }

    /// The time `string(_:)` wrote (`2025-06-15T15:06:40.000Z`; the milliseconds may be left
    /// out), or nil for anything else.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            bytes[range].allSatisfy { (48...57).contains($0) } ? Int(String(decoding: bytes[range], as: UTF8.self)) : nil
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var millis = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let value = number(20..<23) else { return nil }
            millis = value
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalizes 31 February into March: such a date is not one `string` wrote.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
    }
}

/// JSON text written by hand, so keys keep a fixed order and one record is one line.
public enum JSONText {
    public static func optional(_ text: String?) -> String { text.map(JSONString.quoted) ?? "null" }

    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { JSONString.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// One record as `history export` writes it (a line of `--format jsonl`, of `--follow`, the
    /// on-commit command's input). `source` and `lines` came last, added without a new version.
    public static func record(_ record: ExportedRecord) -> String {
        object(recordFields(record))
    }

    /// The fields of ``record(_:)``, in order.
    public static func recordFields(_ record: ExportedRecord) -> [(String, String)] {
        [
            ("id", String(record.id)),
            ("kind", JSONString.quoted(record.kind.rawValue)),
            ("createdAt", JSONString.quoted(ExportTime.string(record.createdAt))),
            ("capturedBy", optional(record.capturedBy)),
            ("barcode", record.barcode.map(barcode) ?? "null"),
            ("product", record.product.map(product) ?? "null"),
            ("note", optional(record.note)),
            ("request", record.request.map { request($0, uid: record.requestUID) } ?? "null"),
            ("photos", "[" + record.photos.map { photo($0, path: record.path(of: $0)) }.joined(separator: ",") + "]"),
            ("source", optional(record.source?.rawValue)),
            ("lines", lines(record.lines)),
            ("uid", optional(record.uid)),
        ]
    }

    /// The code, and GS1 data's fields by AI (`"gs1":{"01":"09506000134352","17":"2020-12-25"}`).
    public static func barcode(_ barcode: Barcode) -> String {
        object(barcodeFields(barcode))
    }

    private static func barcodeFields(_ barcode: Barcode) -> [(String, String)] {
        var fields = [("value", JSONString.quoted(barcode.value)), ("symbology", JSONString.quoted(barcode.symbology.rawValue))]
        let elements = barcode.value.hasPrefix("(") ? barcode.reading.elements : []
        if !elements.isEmpty {
            fields.append(("gs1", object(elements.map { ($0.ai, JSONString.quoted($0.value.text)) })))
        }
        return fields
    }

    /// A batch's lines in scan order: each code as `barcode` writes it, with how many times it
    /// was scanned (`{"value":"4006381333931","symbology":"ean13","count":3}`).
    public static func lines(_ lines: [BatchLine]) -> String {
        "[" + lines.map { object(barcodeFields($0.barcode) + [("count", String($0.quantity))]) }.joined(separator: ",") + "]"
    }

    public static func product(_ product: Product) -> String {
        object([("name", JSONString.quoted(product.name)), ("brand", optional(product.brand))])
    }

    /// A request as `inbox list --json` writes it.
    public static func request(_ request: InboxRequest) -> String {
        object(requestFields(request))
    }

    /// A request as the export writes it in a record: with its `uid` last.
    public static func request(_ request: InboxRequest, uid: String?) -> String {
        object(requestFields(request) + [("uid", optional(uid))])
    }

    private static func requestFields(_ request: InboxRequest) -> [(String, String)] {
        [
            ("id", String(request.id)),
            ("title", JSONString.quoted(request.title)),
            ("body", JSONString.quoted(request.body)),
            ("kind", JSONString.quoted(request.kind.rawValue)),
            ("status", JSONString.quoted(request.status.rawValue)),
            ("createdAt", JSONString.quoted(ExportTime.string(request.createdAt))),
            ("doneAt", optional(ExportTime.string(request.doneAt))),
            ("createdBy", optional(request.createdBy)),
            ("from", optional(request.requester)),
        ]
    }

    public static func photo(_ photo: RecordPhoto, path: String) -> String {
        object([
            ("position", String(photo.position)),
            ("path", JSONString.quoted(path)),
            ("originalName", JSONString.quoted(photo.originalName)),
            ("format", JSONString.quoted(photo.format.rawValue)),
            ("pixelWidth", String(photo.pixelWidth)),
            ("pixelHeight", String(photo.pixelHeight)),
            ("byteSize", String(photo.byteSize)),
        ])
    }
}

/// CSV per RFC 4180: CRLF after every row, a field quoted when it holds `,` `"` CR or LF, and a
/// `"` inside a quoted field doubled. A record's photos and a batch's lines share its row: each
/// of their columns lists them in order, joined with `;`.
///
/// Text is escaped first (``escaped(_:listItem:)``), so the CSV holds no character a terminal
/// would act on, whether it goes to a terminal or a file, and still loses nothing:
/// ``unescaped(_:)`` gives the exact text back.
public enum CSVText {
    /// The columns, in order; new ones are only ever added at the end.
    public static let columns = [
        "id", "kind", "created_at", "barcode", "symbology", "note",
        "request_id", "request_title", "request_status",
        "photo_count", "photo_paths", "photo_formats", "photo_sizes", "photo_bytes",
        "gtin", "lot", "expiry", "serial",
        "captured_by", "request_from", "product_name", "product_brand",
        "source", "request_kind", "request_body", "request_created_at", "request_done_at", "request_created_by",
        "photo_names",
        "line_codes", "line_symbologies", "line_counts", "line_gtins", "line_lots", "line_expiries", "line_serials",
        "uid", "request_uid",
    ]

    /// The separator of the items of a list column (`photo_paths`, `line_codes`…).
    public static let listSeparator: Character = ";"

    public static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }) else {
            return text
        }
        // By bytes: a quote followed by a combining mark is still a quote to double.
        let parts = text.utf8.split(separator: 0x22, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        return "\"" + parts.joined(separator: "\"\"") + "\""
    }

    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One record's row: every text escaped, every list's items escaped and joined with `;`.
    public static func record(_ record: ExportedRecord) -> String {
        let request = record.request
        let photos = record.photos
        let lines = record.lines
        let first: [String] = [
            String(record.id), record.kind.rawValue, ExportTime.string(record.createdAt),
            escaped(record.barcode?.value ?? ""), record.barcode?.symbology.rawValue ?? "", escaped(record.note ?? ""),
            request.map { String($0.id) } ?? "", escaped(request?.title ?? ""), request?.status.rawValue ?? "",
            String(photos.count), list(photos.map(record.path(of:))), list(photos.map(\.format.rawValue)),
            list(photos.map { "\($0.pixelWidth)x\($0.pixelHeight)" }), list(photos.map { String($0.byteSize) }),
        ]
        let people: [String] = [
            escaped(record.capturedBy ?? ""), escaped(request?.requester ?? ""),
            escaped(record.product?.name ?? ""), escaped(record.product?.brand ?? ""),
        ]
        let added: [String] = [
            record.source?.rawValue ?? "", request?.kind.rawValue ?? "", escaped(request?.body ?? ""),
            request.map { ExportTime.string($0.createdAt) } ?? "", ExportTime.string(request?.doneAt) ?? "",
            escaped(request?.createdBy ?? ""), list(photos.map(\.originalName)),
        ]
        let lineFields = lines.map { gs1Columns($0.barcode) }
        let batch: [String] =
            [
                list(lines.map(\.barcode.value)), list(lines.map(\.barcode.symbology.rawValue)), list(lines.map { String($0.quantity) }),
            ] + (0..<4).map { column in list(lineFields.map { $0[column] }) }
        let identities = [escaped(record.uid ?? ""), escaped(record.requestUID ?? "")]
        return row(first + gs1Columns(record.barcode).map { escaped($0) } + people + added + batch + identities)
    }

    /// A list column: each item escaped (its `;` too), joined with `;`.
    static func list(_ items: [String]) -> String {
        items.map { escaped($0, listItem: true) }.joined(separator: String(listSeparator))
    }

    /// GTIN, lot, expiry (as a date) and serial of GS1 data; empty for other codes.
    public static func gs1Columns(_ barcode: Barcode?) -> [String] {
        guard let barcode, barcode.value.hasPrefix("(") else { return ["", "", "", ""] }
        let reading = barcode.reading
        return [reading.gtin ?? "", reading.lot ?? "", reading.element("17")?.value.text ?? "", reading.serial ?? ""]
    }

    // MARK: - Escapes

    /// `text` as a CSV field holds it: `\` is written `\\`, and every character a terminal would
    /// act on (``Sanitizer/isUnsafe(_:)``) as `\u` and four hex digits, as JSON writes it
    /// (ESC is `\u001b`, U+202E `\u202e`) — except a tab, a line feed and a CR that comes just
    /// before a line feed, which CSV holds as they are (inside quotes). In a list column each
    /// item's `;` is written `\u003b` too, so the items split at every `;`.
    public static func escaped(_ text: String, listItem: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || Sanitizer.isUnsafe($0) || (listItem && $0 == ";") }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n": out.unicodeScalars.append(scalar)
            case ";" where listItem: out += JSONString.unicodeEscape(scalar)
            case _ where Sanitizer.isUnsafe(scalar): out += JSONString.unicodeEscape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text ``escaped(_:listItem:)`` wrote, or nil when a `\` starts neither `\\` nor
    /// `\u` with four hex digits of a character.
    public static func unescaped(_ text: Substring) -> String? {
        guard text.contains("\\") else { return String(text) }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            switch scalars.popFirst() {
            case "\\": out.append("\\")
            case "u":
                let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
                guard hex.count == 4, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16),
                    let escaped = Unicode.Scalar(value)
                else { return nil }
                scalars = scalars.dropFirst(4)
                out.append(escaped)
            default: return nil
            }
        }
        return String(out)
    }

    /// The items of a list column, each unescaped; nil when one holds a wrong escape. An empty
    /// field is an empty list.
    public static func listItems(_ field: String) -> [String]? {
        guard !field.isEmpty else { return [] }
        let parts = field.split(separator: listSeparator, omittingEmptySubsequences: false)
        let items = parts.compactMap(unescaped)
        return items.count == parts.count ? items : nil
    }
}
