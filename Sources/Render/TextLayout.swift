import Foundation

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

    /// One paragraph wrapped at spaces into lines of at most `width` cells (words longer than a
    /// line are broken); spaces at the breaks are dropped.
    static func wrap(_ paragraph: String, width: Int) -> [String] {
        let characters = Array(paragraph)
        let ranges = wrapRanges(widths: characters.map(TextWidth.of), breaksAfter: characters.map { $0 == " " }, width: width)
        return ranges.map { range in
            var line = String(characters[range])
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Several paragraphs (already split at line breaks) wrapped one after another.
    static func wrap(_ paragraphs: [String], width: Int) -> [String] {
        paragraphs.flatMap { wrap($0, width: width) }
    }

    /// Splits items of the given widths into consecutive ranges of at most `width` cells,
    /// preferring to end a range after an item marked in `breaksAfter`. The ranges cover every
    /// item (an empty input gives one empty range), so an editor can map its cursor onto them.
    /// A break opportunity that overflows by itself (a space at the edge) hangs on the line.
    static func wrapRanges(widths: [Int], breaksAfter: [Bool], width: Int) -> [Range<Int>] {
        let count = widths.count
        guard width > 0, count > 0 else { return [0..<count] }
        var ranges: [Range<Int>] = []
        var start = 0
        while start < count {
            var used = 0
            var end = start
            var lastBreak: Int?
            while end < count, used + widths[end] <= width {
                used += widths[end]
                end += 1
                if breaksAfter[end - 1] { lastBreak = end }
            }
            if end == count {
                ranges.append(start..<end)
                break
            }
            if breaksAfter[end] {
                end += 1
            } else if let lastBreak {
                end = lastBreak
            } else if end == start {
                end = start + 1
            }
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }
}
