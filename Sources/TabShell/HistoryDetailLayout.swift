import CaptureMode
import Foundation

/// How a record's detail is laid out in lines: labels in a fixed column, each value's
/// paragraphs wrapped beside its label, two lines per photo (name, then facts). The reducer
/// counts these lines to scroll the detail exactly to its end; Render draws the same lines.
public struct HistoryDetailLayout: Equatable, Sendable {
    /// The label column, "Captured" and two spaces.
    public static let labelWidth = 10
    /// The cells left of the text for the selection pointer (as lists have).
    public static let gutterWidth = 2

    /// Cells for a value beside its label; 0 or less when the screen is too narrow for values.
    public let valueWidth: Int
    /// Rows the detail has on screen.
    public let rows: Int

    public init(layout: Layout) {
        // The content area is the screen less a column each side; the text starts after the gutter.
        valueWidth = layout.size.columns - 2 - Self.gutterWidth - Self.labelWidth
        rows = layout.contentRows
    }

    /// The lines a value of these paragraphs takes (at least one).
    public func lineCount(of paragraphs: [String]) -> Int {
        guard valueWidth > 0 else { return max(1, paragraphs.count) }
        return max(1, paragraphs.reduce(0) { $0 + TextWrap.lines($1, width: valueWidth).count })
    }

    /// Whether the detail lists photos: for kinds that take them, and for any record that has some.
    public static func showsPhotos(_ detail: HistoryDetailState) -> Bool {
        [.photos, .product].contains(detail.record.kind) || detail.photos?.isEmpty == false
    }

    /// Every line of the detail, top to bottom.
    public func lineCount(of detail: HistoryDetailState) -> Int {
        let record = detail.record
        let sanitizer = Sanitizer(unicode: true)
        var count = lineCount(of: [record.kind.title])
        if let barcode = record.barcode { count += lineCount(of: sanitizer.lines(barcode.value)) }
        count += record.requestTitle.map { lineCount(of: sanitizer.lines($0)) } ?? 1
        count += lineCount(of: [Self.timestamp(record.createdAt)])
        if Self.showsPhotos(detail) { count += max(1, 2 * (detail.photos?.count ?? 0)) }
        if let note = record.note { count += lineCount(of: sanitizer.lines(note)) }
        return count
    }

    /// The largest first line: the last line at the bottom of the screen.
    public func maximumScrollOffset(of detail: HistoryDetailState) -> Int {
        max(0, lineCount(of: detail) - rows)
    }

    /// "2025-01-05 14:03 UTC": in UTC so rendering stays a pure function.
    public static func timestamp(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)) UTC"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
