import Domain
import Foundation
import TabShell

/// How text that is wider than its space ends.
enum Overflow {
    /// Cut at the edge.
    case clip
    /// Cut early and end with an ellipsis, so the cut shows.
    case ellipsis
}

/// The one place that writes cells. Views draw through it; it keeps every row exactly `width`
/// cells (a wide character is its cell plus a continuation cell, and overwriting either half
/// blanks the other), refuses to emit anything a terminal would interpret, and collects the
/// text cursor and the clickable regions of the frame.
struct Canvas {
    private(set) var grid: Grid
    private(set) var hitRegions: [HitRegion] = []
    private(set) var cursor: CursorPosition?
    /// Where the things that can have focus were drawn (the last of each kind wins; an overlay
    /// forgets those under it). In screen-reader mode the cursor goes to the focused one.
    private(set) var anchors: [FocusAnchor: CursorPosition] = [:]
    /// Graphics pictures drawn so far, with how many of their rows were put in place.
    private var images: [(image: FrameImage, rowsDrawn: Int)] = []
    let glyphs: Glyphs
    /// Screen-reader mode: views that mark something by colour or symbol alone say it in words.
    let screenReader: Bool
    /// Rows at the bottom an alert keeps clear of while its message stays whole: screen-reader
    /// mode's announcement wants them when its sentence is longer than a row.
    var reservedBottomRows = 0
    /// The row under the alert drawn last (its box's bottom edge excluded), nil without one.
    var overlayBottom: Int?
    private let sanitizer: Sanitizer

    init(size: ScreenSize, context: RenderContext) {
        grid = Grid(width: size.columns, height: size.rows)
        glyphs = context.glyphs
        screenReader = context.screenReader
        sanitizer = context.sanitizer
    }

    var bounds: Rect { Rect(row: 0, column: 0, width: grid.width, height: grid.height) }

    var frame: Frame {
        Frame(
            grid: grid, cursor: cursor, hitRegions: hitRegions,
            images: images.compactMap { image, rowsDrawn in
                rowsDrawn == image.size.rows && isReserved(image) ? image : nil
            })
    }

    /// Every cell of the picture's rectangle is on the grid and still kept blank for it.
    private func isReserved(_ image: FrameImage) -> Bool {
        guard image.row >= 0, image.column >= 0, image.row + image.size.rows <= grid.height,
            image.column + image.size.columns <= grid.width
        else { return false }
        let reserved = Cell(" ", paint: .reservedForImage)
        for row in image.rows {
            for column in image.column..<(image.column + image.size.columns) where grid[row, column] != reserved {
                return false
            }
        }
        return true
    }

    // MARK: - Text

    /// Draws `text` from (`row`, `column`) within `width` cells (to the right edge when nil) and
    /// returns the number of cells it took. A wide character that would straddle the edge
    /// becomes a space; zero-width clusters with nothing to attach to are skipped.
    @discardableResult
    mutating func put(
        _ text: String, row: Int, column: Int, width: Int? = nil,
        style: CellStyle = .normal, overflow: Overflow = .ellipsis
    ) -> Int {
        guard row >= 0, row < grid.height else { return 0 }
        let start = max(0, column)
        let limit = min(grid.width, width.map { column + $0 } ?? grid.width)
        guard start < limit else { return 0 }
        let safe = screenReader ? Self.spoken(sanitizer.scrub(text)) : sanitizer.scrub(text)
        let fitted =
            overflow == .ellipsis
            ? TextLayout.truncate(safe, width: limit - column, ellipsis: glyphs.ellipsis)
            : safe
        var x = column
        for character in fitted {
            let w = TextWidth.of(character)
            if w == 0 { continue }
            if x + w > limit {
                if x < limit, x >= start { setCell(" ", style: style, row: row, column: x, wide: false) }
                x = limit
                break
            }
            if x >= start { setCell(String(character), style: style, row: row, column: x, wide: w == 2) }
            x += w
        }
        return x - column
    }

    /// Screen-reader mode's punctuation: a middle dot, which a reader says as "middle dot" (or
    /// not at all), is a comma wherever it comes from, the chrome's separators or a summary.
    static func spoken(_ text: String) -> String {
        guard text.contains("\u{00B7}") else { return text }
        return text.replacingOccurrences(of: " \u{00B7} ", with: ", ").replacingOccurrences(of: "\u{00B7}", with: ",")
    }

    /// Draws spans one after another; the last one that does not fit is cut.
    @discardableResult
    mutating func put(_ spans: [Span], row: Int, column: Int, width: Int? = nil, overflow: Overflow = .ellipsis) -> Int {
        let limit = width.map { column + $0 } ?? grid.width
        var x = column
        for span in spans where x < limit {
            x += put(span.text, row: row, column: x, width: limit - x, style: span.style, overflow: overflow)
        }
        return x - column
    }

    /// Draws spans right-aligned in `rect`'s first row; returns the columns they took.
    @discardableResult
    mutating func putRightAligned(_ spans: [Span], in rect: Rect) -> Range<Int> {
        let width = min(spans.width, rect.width)
        let column = rect.right - width
        put(spans, row: rect.row, column: column, width: width)
        return column..<rect.right
    }

    /// Draws spans centred in `rect`'s first row; returns the columns they took.
    @discardableResult
    mutating func putCentered(_ spans: [Span], in rect: Rect) -> Range<Int> {
        let width = min(spans.width, rect.width)
        let column = rect.column + (rect.width - width) / 2
        put(spans, row: rect.row, column: column, width: width)
        return column..<(column + width)
    }

    /// Draws paragraphs word-wrapped to `rect`'s width from its top row; when they need more rows
    /// than `rect` has, the last row shown ends in an ellipsis. Returns the rows used.
    @discardableResult
    mutating func putWrapped(_ paragraphs: [String], in rect: Rect, style: CellStyle = .normal) -> Int {
        guard !rect.isEmpty else { return 0 }
        var lines = TextWrap.lines(paragraphs, width: rect.width)
        if lines.count > rect.height {
            lines = Array(lines.prefix(rect.height))
            let kept = TextWidth.prefix(lines[lines.count - 1], width: rect.width - TextWidth.of(glyphs.ellipsis))
            lines[lines.count - 1] = kept + glyphs.ellipsis
        }
        for (offset, line) in lines.enumerated() {
            put(line, row: rect.row + offset, column: rect.column, width: rect.width, style: style)
        }
        return lines.count
    }

    /// Stacks paragraphs from the top of `rect`, a blank row before each when they all fit
    /// that way, packed together when they do not.
    mutating func putBlocks(_ blocks: [TextBlock], in rect: Rect) {
        let lineCounts = blocks.map { TextWrap.lines($0.text, width: rect.width - $0.indent).count }
        let spacing = lineCounts.reduce(0, +) + blocks.count <= rect.height ? 1 : 0
        var area = rect
        for block in blocks {
            area = area.inset(top: spacing)
            let used = putWrapped([block.text], in: area.inset(left: block.indent), style: block.style)
            area = area.inset(top: used)
        }
    }

    // MARK: - Areas

    /// Fills `rect` with blanks in `style`.
    mutating func fill(_ rect: Rect, style: CellStyle = .normal) {
        fill(rect, with: " ", style: style)
    }

    /// A horizontal rule across `rect`'s first row.
    mutating func rule(_ rect: Rect, style: CellStyle = .border) {
        fill(rect.line(0), with: glyphs.horizontal, style: style)
    }

    /// A border around `rect` with its inside blanked in `fill`, and an optional title in the top edge.
    mutating func box(_ rect: Rect, title: String? = nil, border: CellStyle = .border, fill inside: CellStyle = .normal) {
        guard rect.width >= 2, rect.height >= 2 else { return fill(rect, style: inside) }
        fill(rect.inset(by: 1), style: inside)
        let top = rect.row, bottom = rect.bottom - 1, left = rect.column, right = rect.right - 1
        fill(Rect(row: top, column: left + 1, width: rect.width - 2, height: 1), with: glyphs.horizontal, style: border)
        fill(Rect(row: bottom, column: left + 1, width: rect.width - 2, height: 1), with: glyphs.horizontal, style: border)
        fill(Rect(row: top + 1, column: left, width: 1, height: rect.height - 2), with: glyphs.vertical, style: border)
        fill(Rect(row: top + 1, column: right, width: 1, height: rect.height - 2), with: glyphs.vertical, style: border)
        put(glyphs.topLeft, row: top, column: left, width: 1, style: border)
        put(glyphs.topRight, row: top, column: right, width: 1, style: border)
        put(glyphs.bottomLeft, row: bottom, column: left, width: 1, style: border)
        put(glyphs.bottomRight, row: bottom, column: right, width: 1, style: border)
        if let title, rect.width > 6 {
            put(" \(title) ", row: top, column: left + 2, width: rect.width - 4, style: .heading)
        }
    }

    /// Blanks a column on each side of an overlay so its border does not run into borders or
    /// text underneath; the screen's outermost columns are left alone. In screen-reader mode,
    /// where the border is blank, the overlay's rows are blanked across the screen instead, so
    /// a row read aloud never mixes the overlay's words with a list's underneath.
    mutating func clearSides(of rect: Rect) {
        if screenReader { return fill(Rect(row: rect.row, column: 0, width: grid.width, height: rect.height)) }
        for column in [rect.column - 1, rect.right] where column >= 1 && column < grid.width - 1 {
            fill(Rect(row: rect.row, column: column, width: 1, height: rect.height))
        }
    }

    /// Gives every cell of `rect` one style, keeping its text (a selected row, say).
    mutating func restyle(_ rect: Rect, style: CellStyle) {
        for row in rect.rows where row >= 0 && row < grid.height {
            for column in rect.columns where column >= 0 && column < grid.width {
                grid[row, column].style = style
            }
        }
    }

    private mutating func fill(_ rect: Rect, with glyph: String, style: CellStyle) {
        for row in rect.rows where row >= 0 && row < grid.height {
            for column in rect.columns where column >= 0 && column < grid.width {
                setCell(glyph, style: style, row: row, column: column, wide: false)
            }
        }
    }

    // MARK: - Photos

    /// Draws row `imageRow` of a photo preview from (`row`, `column`), at most `width` cells, each
    /// cell with the preview's own colours. A character that is not one printable column (or,
    /// in ASCII mode, not ASCII) becomes a space: a preview never reaches the terminal as
    /// anything but cells.
    mutating func putPreviewRow(_ image: PreviewImage, row imageRow: Int, atRow row: Int, column: Int, width: Int? = nil) {
        guard row >= 0, row < grid.height, (0..<image.size.rows).contains(imageRow) else { return }
        let count = min(image.size.columns, width ?? image.size.columns)
        if let picture = image.graphics {
            reserveImageRow(picture, size: image.size, row: imageRow, atRow: row, column: column, count: count)
            return
        }
        let ascii = glyphs != .unicode
        for offset in 0..<max(0, count) {
            let x = column + offset
            guard x >= 0, x < grid.width else { continue }
            let cell = image[imageRow, offset]
            let value = cell.character.value
            let printable =
                value >= 0x20 && value != 0x7F && (!ascii || value < 0x7F)
                && !(0x80..<0xA0).contains(value) && TextWidth.of(Character(cell.character)) == 1
            releaseWideCharacter(row: row, column: x)
            grid[row, x] = Cell(
                printable ? String(Character(cell.character)) : " ",
                paint: cell.foreground == nil && cell.background == nil
                    ? nil : CellPaint(foreground: cell.foreground, background: cell.background)
            )
        }
    }

    /// A graphics picture's row: blank cells kept for it, and the picture noted for the frame
    /// once its first row is drawn whole (rows that follow in order complete it).
    private mutating func reserveImageRow(_ picture: PreviewGraphics, size: CellBox, row imageRow: Int, atRow row: Int, column: Int, count: Int) {
        for x in column..<(column + max(0, count)) where x >= 0 && x < grid.width {
            releaseWideCharacter(row: row, column: x)
            grid[row, x] = Cell(" ", paint: .reservedForImage)
        }
        guard count == size.columns else { return }
        if imageRow == 0 {
            images.append((FrameImage(row: row, column: column, size: size, picture: picture), 1))
        } else if let index = images.lastIndex(where: { image, rowsDrawn in
            image.column == column && image.row + imageRow == row && rowsDrawn == imageRow && image.picture == picture
        }) {
            images[index].rowsDrawn += 1
        }
    }

    // MARK: - Cursor and clicks

    /// Shows the text cursor at a cell (ignored outside the grid).
    mutating func setCursor(row: Int, column: Int) {
        cursor = grid.contains(row: row, column: column) ? CursorPosition(row: row, column: column) : nil
    }

    mutating func hideCursor() { cursor = nil }

    /// Notes where a thing that can have focus was drawn (ignored outside the grid).
    mutating func anchor(_ kind: FocusAnchor, row: Int, column: Int) {
        guard grid.contains(row: row, column: column) else { return }
        anchors[kind] = CursorPosition(row: row, column: column)
    }

    /// Forgets the anchors drawn so far: an overlay now covers them and has the focus.
    mutating func forgetAnchors() { anchors.removeAll() }

    /// Puts the cursor where `position` says (screen-reader mode's focus), or hides it.
    mutating func placeCursor(_ position: CursorPosition?) {
        cursor = position.flatMap { grid.contains(row: $0.row, column: $0.column) ? $0 : nil }
    }

    /// Makes `columns` of `row` send `action` when clicked (clipped to the grid).
    mutating func addHitRegion(row: Int, columns: Range<Int>, action: AppAction) {
        let columns = columns.clamped(to: 0..<grid.width)
        guard row >= 0, row < grid.height, !columns.isEmpty else { return }
        hitRegions.append(HitRegion(row: row, columns: columns, action: action))
    }

    /// Forgets the clickable regions under an overlay (everything, for a modal alert).
    mutating func removeHitRegions(under rect: Rect? = nil) {
        guard let rect else { return hitRegions.removeAll() }
        hitRegions.removeAll { rect.rows.contains($0.row) && $0.columns.overlaps(rect.columns) }
    }

    // MARK: - Cells

    private mutating func setCell(_ text: String, style: CellStyle, row: Int, column: Int, wide: Bool) {
        let wide = wide && column + 1 < grid.width
        releaseWideCharacter(row: row, column: column)
        if wide { releaseWideCharacter(row: row, column: column + 1) }
        grid[row, column] = Cell(text, style: style)
        if wide { grid[row, column + 1] = Cell("", style: style) }
    }

    /// Before a cell is overwritten: if it is half of a wide character, blank the other half.
    private mutating func releaseWideCharacter(row: Int, column: Int) {
        if grid[row, column].isContinuation, column > 0 {
            grid[row, column - 1].text = " "
        } else if column + 1 < grid.width, grid[row, column + 1].isContinuation {
            grid[row, column + 1].text = " "
        }
    }
}
