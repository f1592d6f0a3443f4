import Foundation

extension [String] {
    /// The items as a sentence lists them: "a, b and c" (with `or`, "a, b or c"); one alone as it is.
    public func listed(or: Bool = false) -> String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + (or ? " or " : " and ") + self[count - 1]
    }
}

/// Word wrapping measured in display cells. It lives beside `Layout` because the reducer needs
/// the same line counts the renderer draws (to scroll a record's detail exactly to its end).
public enum TextWrap {
    /// One paragraph wrapped at spaces into lines of at most `width` cells (words longer than a
    /// line are broken); spaces at the breaks are dropped.
    public static func lines(_ paragraph: String, width: Int) -> [String] {
        let characters = Array(paragraph)
        let ranges = ranges(widths: characters.map(TextWidth.of), breaksAfter: characters.map { $0 == " " }, width: width)
        return ranges.map { range in
            var line = String(characters[range])
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Several paragraphs (already split at line breaks) wrapped one after another.
    public static func lines(_ paragraphs: [String], width: Int) -> [String] {
        paragraphs.flatMap { lines($0, width: width) }
    }

    /// Splits items of the given widths into consecutive ranges of at most `width` cells,
    /// preferring to end a range after an item marked in `breaksAfter`. The ranges cover every
    /// item (an empty input gives one empty range), so an editor can map its cursor onto them.
    /// A break opportunity that overflows by itself (a space at the edge) hangs on the line.
    public static func ranges(widths: [Int], breaksAfter: [Bool], width: Int) -> [Range<Int>] {
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
