import Foundation
import TabShell

/// Fitting text into cells: truncation and word wrapping, measured in display width.
enum TextLayout {
    /// The longest start of `text` that fits in `width` cells, ending in `ellipsis` when cut.
    static func truncate(_ text: String, width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        let ellipsisWidth = TextWidth.of(ellipsis)
        guard ellipsisWidth < width else { return prefix(text, width: width) }
        var kept = prefix(text, width: width - ellipsisWidth)
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + ellipsis
    }

    /// The longest end of `text` that fits in `width` cells, starting with `ellipsis` when cut:
    /// for paths, whose end says the most.
    static func truncateHead(_ text: String, width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        if TextWidth.of(text) <= width { return text }
        let room = width - TextWidth.of(ellipsis)
        guard room > 0 else { return prefix(text, width: width) }
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

    /// The longest start of `text` that fits in `width` cells.
    static func prefix(_ text: String, width: Int) -> String {
        var used = 0
        var out = ""
        for character in text {
            let w = TextWidth.of(character)
            if used + w > width { break }
            used += w
            out.append(character)
        }
        return out
    }
}
