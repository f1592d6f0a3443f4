import Foundation
import TabShell

/// Fitting text into cells: truncation and word wrapping, measured in display width.
enum TextLayout {
    /// The longest start of `text` that fits in `width` cells, ending in `ellipsis` when cut.
    /// Reads no further than the first character that does not fit: a long text costs what is shown.
    static func truncate(_ text: String, width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        let room = width - TextWidth.of(ellipsis)
        var used = 0
        var kept = text.startIndex  // the end of the longest start that fits in `room`
        for index in text.indices {
            used += TextWidth.of(text[index])
            if used > width {
                guard room > 0 else { return TextWidth.prefix(text, width: width) }
                var start = text[..<kept]
                while start.last?.isWhitespace == true { start.removeLast() }
                return start + ellipsis
            }
            if used <= room { kept = text.index(after: index) }
        }
        return text
    }

    /// The longest end of `text` that fits in `width` cells, starting with `ellipsis` when cut:
    /// for paths, whose end says the most.
    static func truncateHead(_ text: String, width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        let room = width - TextWidth.of(ellipsis)
        guard room > 0 else { return TextWidth.prefix(text, width: width) }
        var used = 0
        var kept = Substring(text).endIndex
        for index in text.indices.reversed() {
            let w = TextWidth.of(text[index])
            if used + w > room { break }
            used += w
            kept = index
        }
        return ellipsis + text[kept...]
    }
}
