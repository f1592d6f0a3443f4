import Domain
import Foundation
import Logging
import TabShell

/// One log event as one line of JSON: `{"time":"2026-11-29T09:40:00.123Z","level":"info",
/// "process":412,"event":"connected","address":"127.0.0.1:53122","connection":"3"}`: the time
/// (RFC 3339, UTC, milliseconds), the level, the process that wrote it (the text format's
/// `[412]`; a session's `pid` field is its child's), the message as `event`, then the metadata,
/// by name.
///
/// Every value is encoded by `JSONSerialization`; only the order is this type's: the four
/// fixed keys first, the fields sorted after them, so a person reading the file and a filter
/// anchored on `"event":"…","address":"…"` (packaging/fail2ban) both find them in one place. A
/// field named like a fixed key is written as `field.NAME`, so no key appears twice.
///
/// Nothing written can break the line or reach a terminal raw: every string (message, names,
/// values) is cut to ``maximumCharacters`` and goes through ``Sanitizer`` as the text format's
/// lines do (line breaks and controls become visible marks); JSON escapes quotes and backslashes.
public enum JSONLogLine {
    /// The most characters of one string (the message, a field's name or value) written; a
    /// longer one ends with `…` and how many were left out. A line's fields come from the
    /// program, so this bounds a line to a few times it.
    public static let maximumCharacters = 4096

    static let fixedKeys: Set<String> = ["time", "level", "process", "event"]

    /// The line, without its newline.
    public static func line(
        time: Date, level: Logger.Level, message: String, metadata: Logger.Metadata,
        pid: Int32 = ProcessInfo.processInfo.processIdentifier
    ) -> String {
        var members = [
            member("time", printable(stamp(time))), member("level", printable(level.rawValue)), member("process", Int(pid)),
            member("event", printable(message)),
        ]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            members.append(member(fixedKeys.contains(key) ? "field." + key : key, foundation(value)))
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A line of the flood gate's: how many lines of `message` were left out since `since`.
    public static func floodSummary(time: Date, message: String, omitted: Int, windowSeconds: Int, since: Date) -> String {
        line(
            time: time, level: .notice, message: "lines left out",
            metadata: [
                "message": "\(message)", "omitted": "\(omitted)", "windowSeconds": "\(windowSeconds)", "since": "\(stamp(since))",
            ])
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-29T09:40:00.123Z`.
    public static func stamp(_ time: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: time)
    }

    // MARK: - Values

    /// What `JSONSerialization` takes for a metadata value, every string made ``printable(_:)``.
    private static func foundation(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): printable(text)
        case .stringConvertible(let convertible): printable(convertible.description)
        case .array(let values): values.prefix(maximumCharacters).map(foundation)
        case .dictionary(let members):
            Dictionary(members.prefix(maximumCharacters).map { (printable($0.key), foundation($0.value)) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private static func member(_ key: String, _ value: Any) -> String {
        encoded(printable(key)) + ":" + encoded(value)
    }

    private static func encoded(_ value: Any) -> String {
        let options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Cut to ``maximumCharacters``, then made printable on one line.
    static func printable(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var kept = text
        if scalars.count > maximumCharacters {
            let cut = String(String.UnicodeScalarView(scalars.prefix(maximumCharacters)))
            kept = cut + "… (\(scalars.count - maximumCharacters) more characters)"
        }
        return Sanitizer(unicode: true).line(kept)
    }
}
