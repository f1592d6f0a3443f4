import CaptureMode
import Foundation
import TabShell

/// The renderer: a pure function from the app state to a frame of cells.
public enum Screen {
    /// Draws `state` at `state.size`: the tab shell, or capture mode, with any sheet or alert on
    /// top; a notice instead when the terminal is below the minimum size. In screen-reader mode
    /// the frame has one row more than `state.size` (see `ScreenReader.appSize`): the
    /// announcement line; and the cursor is on what has focus, else on that line.
    public static func render(_ state: AppState, options: RenderOptions) -> Frame {
        let context = RenderContext(
            options: options, previews: state.previews, previewStyle: state.previewStyle, thumbnailBox: state.layout.thumbnail
        )
        var canvas = Canvas(size: state.size, context: context)
        let announcement = options.screenReader ? announcementLines(for: state, context: context) : []
        // A sentence longer than a row takes rows above the last: an alert stays clear of them.
        canvas.reservedBottomRows = max(0, announcement.count - 1)
        if state.focus == .tooSmall {
            TooSmallView(size: state.size, announcementRows: options.announcementRows).draw(on: &canvas)
        } else {
            draw(state.presentation, of: state, context: context, on: &canvas)
        }
        guard options.screenReader else { return canvas.frame }
        canvas.placeCursor(focusCursor(of: state, on: canvas))
        // Never over the alert: the lines below its box, and the row of its own.
        let room = canvas.overlayBottom.map { max(1, canvas.bounds.height - $0 + 1) } ?? announcement.count
        return withAnnouncement(fitted(announcement, rows: room, width: state.size.columns, context: context), on: canvas, context: context)
    }

    /// `lines` in at most `rows` rows, the last one kept ending in an ellipsis when cut.
    static func fitted(_ lines: [String], rows: Int, width: Int, context: RenderContext) -> [String] {
        guard lines.count > rows, rows > 0 else { return lines }
        var kept = Array(lines.prefix(rows))
        let rest = lines.dropFirst(rows - 1).joined(separator: " ")
        kept[rows - 1] = TextWidth.prefix(rest, width: width - TextWidth.of(context.glyphs.ellipsis)) + context.glyphs.ellipsis
        return kept
    }

    // MARK: - Screen-reader mode

    /// Where the cursor goes in screen-reader mode: on what `AppState.focus` names, as the
    /// views drew it; nil when it has no place on screen (the announcement line takes it).
    static func focusCursor(of state: AppState, on canvas: Canvas) -> CursorPosition? {
        let anchors = canvas.anchors
        switch state.focus {
        case .tooSmall:
            return nil
        case .alert, .question:
            return anchors[.defaultButton]
        case .viewer:
            return anchors[.content]
        case .help:
            return anchors[.overlayText]
        case .search:
            // As in a combo box, the query keeps the cursor until the arrows move into the results.
            if case let .sheet(.search(search)) = state.presentation, search.resultsHaveFocus, let row = anchors[.selectedRow] {
                return row
            }
            return canvas.cursor
        case let .capture(focus):
            // Saving: nothing to press until it is done; the announcement line says so.
            if case let .fullScreenCapture(capture) = state.presentation, capture.isCommitting, !capture.isShowingKeys { return nil }
            switch focus {
            case .keys: return anchors[.overlayText]
            case .confirmClose: return anchors[.defaultButton]
            case .picker: return anchors[.selectedRow]
            case .barcode, .photos, .note: return canvas.cursor ?? anchors[.content]
            case .review: return anchors[.doneButton]
            }
        case .inbox, .history, .historyDetail, .settings:
            return anchors[.selectedRow] ?? anchors[.content]
        }
    }

    /// The announcement's lines. A question's or an alert's sentence is wrapped at spaces,
    /// never cut while it fits a third of the screen (its buttons come before its message, so
    /// they are the last to go): the rows it takes are under the alert, whose keys are the only
    /// ones acting. Any other sentence keeps one row, so the hint line stays.
    static func announcementLines(for state: AppState, context: RenderContext) -> [String] {
        let width = state.size.columns
        guard width > 0 else { return [] }
        let text = Announcement.text(for: state, context: context)
        let asks: Bool
        switch state.focus {
        case .alert, .question, .capture(.confirmClose): asks = true
        default: asks = false
        }
        guard asks else { return [text] }
        let lines = TextWrap.lines(text, width: width)
        return lines.isEmpty ? [""] : fitted(lines, rows: max(1, (state.size.rows + 1) / 3), width: width, context: context)
    }

    /// The frame with the announcement under it: its last line on a row of its own, the lines
    /// before it over the app's last rows (the hint line and the tab bar first); the cursor on
    /// its first line when it has no other place.
    private static func withAnnouncement(_ lines: [String], on app: Canvas, context: RenderContext) -> Frame {
        var canvas = app
        let above = lines.dropLast()
        let firstRow = canvas.bounds.height - above.count
        for (offset, text) in above.enumerated() {
            let row = Rect(row: firstRow + offset, column: 0, width: canvas.bounds.width, height: 1)
            canvas.removeHitRegions(under: row)
            canvas.fill(row)
            canvas.put(text, row: row.row, column: 0, style: .hint)
        }
        var frame = withAnnouncementLine(canvas.frame, text: lines.last ?? "", context: context)
        if app.frame.cursor == nil, !above.isEmpty { frame.cursor = CursorPosition(row: max(0, firstRow), column: 0) }
        return frame
    }

    /// The frame with the announcement line added under it; the cursor on that line when it
    /// has no other place.
    private static func withAnnouncementLine(_ frame: Frame, text: String, context: RenderContext) -> Frame {
        let app = frame.grid
        var line = Canvas(size: ScreenSize(rows: 1, columns: app.width), context: context)
        line.put(text, row: 0, column: 0, style: .hint)
        var grid = Grid(width: app.width, height: app.height + 1)
        for row in 0..<app.height {
            for column in 0..<app.width { grid[row, column] = app[row, column] }
        }
        for column in 0..<app.width { grid[app.height, column] = line.grid[0, column] }
        var result = frame
        result.grid = grid
        result.cursor = frame.cursor ?? (app.width > 0 ? CursorPosition(row: app.height, column: 0) : nil)
        return result
    }

    private static func draw(_ presentation: Presentation, of state: AppState, context: RenderContext, on canvas: inout Canvas) {
        switch presentation {
        case .none:
            ShellView(state: state, context: context).draw(on: &canvas)
        case let .sheet(sheet):
            ShellView(state: state, context: context).draw(on: &canvas)
            let regions = ShellLayout(state: state)
            switch sheet {
            case let .help(help):
                let lines = KeyMap.helpLines(in: state, unicode: context.symbolKeys)
                HelpSheetView(lines: lines, scrollOffset: help.scrollOffset, layout: state.layout, regions: regions, context: context).draw(on: &canvas)
            case let .search(search):
                SearchSheetView(search: search, layout: state.layout, regions: regions, context: context).draw(on: &canvas)
            }
        case let .fullScreenCapture(capture):
            CaptureView(capture: capture, state: state, context: context).draw(on: &canvas)
        case let .alert(alert, over):
            draw(over, of: state, context: context, on: &canvas)
            AlertView(alert: alert, context: context).draw(on: &canvas)
        case let .viewer(viewer, _):
            PhotoViewerView(viewer: viewer, state: state, context: context).draw(on: &canvas)
        }
    }
}
