import Foundation
import TabShell

/// Shown instead of everything when the terminal is below `Layout.minimumSize`: the longest
/// wording that fits, down to a single "small" — never a word cut in half.
struct TooSmallView {
    let size: ScreenSize
    /// Rows of the terminal the app does not get (screen-reader mode's announcement line): the
    /// notice speaks of the terminal's size, not the app's.
    var announcementRows = 0

    /// Headings from the fullest to the shortest; the first that fits is used.
    static let headings = ["Terminal too small", "Too small", "Small", "!"]

    func draw(on canvas: inout Canvas) {
        let minimum = ScreenSize(rows: Layout.minimumSize.rows + announcementRows, columns: Layout.minimumSize.columns)
        let size = ScreenSize(rows: self.size.rows + announcementRows, columns: self.size.columns)
        let width = max(0, size.columns)
        let heading = Self.headings.first { TextWidth.of($0) <= width } ?? ""
        let details = [
            "need \(minimum.columns)x\(minimum.rows), have \(size.columns)x\(size.rows)",
            "need \(minimum.columns)x\(minimum.rows)",
            "\(minimum.columns)x\(minimum.rows)",
        ]
        let detail = details.first { TextWidth.of($0) <= width }
        var lines = [Span(heading, .heading)]
        if let detail { lines.append(Span(detail, .dim)) }
        let shown = lines.prefix(max(0, self.size.rows))
        let area = canvas.bounds.centered(width: self.size.columns, height: shown.count)
        for (offset, line) in shown.enumerated() {
            canvas.putCentered([line], in: area.line(offset))
        }
    }
}
