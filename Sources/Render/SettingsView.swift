import Domain
import Foundation
import TabShell

/// The Settings tab: one row per setting with its value on the right (click or Enter changes
/// it), and where the data lives.
struct SettingsView: TabContent {
    let settings: Settings
    let screen: SettingsScreenState
    let databaseLocation: String
    /// "1,234 records, 5 requests".
    let holdings: String
    /// What start-up recovery did, if anything.
    let recoverySummary: String?
    /// History's record count, for the Clear History row.
    let recordCount: Int
    /// NO_COLOR is set: colour is off whatever the setting says, and the row says why.
    var noColor = false
    /// config.toml's theme, which the Theme row shows while Settings has chosen none.
    var configTheme: Theme = .auto
    /// How photos are drawn ("automatic (blocks: inside tmux), 256 colours"); nil without a terminal.
    var previewSummary: String? = nil
    /// What the Automatic setting draws with here ("sixel", "blocks"); nil without a terminal.
    var automaticPreviews: String? = nil
    let layout: Layout
    let context: RenderContext

    var heading: Heading {
        // Where the highlight is, as the Inbox says it, when not every setting fits.
        let count = SettingsRow.allCases.count
        let scrolls = count > layout.settingsListRows
        return Heading(title: Tab.settings.title, context: "changes apply at once", position: scrolls ? "\(screen.list.cursor + 1)/\(count)" : nil)
    }

    func draw(in rect: Rect, on canvas: inout Canvas) {
        let rows = SettingsRow.allCases
        let first = min(max(0, screen.list.scrollOffset), rows.count)
        let visible = rows[first..<min(rows.count, first + min(layout.settingsListRows, rect.height))]
        let values = visible.map(value(of:))
        // A long value never takes the setting's name away: the name keeps a few columns.
        let nameRoom = min(12, rect.width / 3)
        let valueWidth = min(values.map(TextWidth.of).max() ?? 0, max(6, rect.width - Table.gutterWidth - 2 - nameRoom))
        let table = Table(columns: [.flexible(), .fixed(valueWidth, .trailing)], gap: 2)
        for (offset, (row, value)) in zip(visible, values).enumerated() {
            let line = rect.line(offset)
            table.drawRow(
                [Span(row.title), Span(value)], in: line, selected: row.rawValue == screen.list.cursor, clicks: .settings(.rowCycled(row, forward: true)), on: &canvas)
        }
        drawDataLocation(in: rect.inset(top: visible.count), on: &canvas)
    }

    /// "Data: ~/.local/share/tabshell/…", a blank row under the list when there is room.
    private func drawDataLocation(in rect: Rect, on canvas: inout Canvas) {
        guard !rect.isEmpty, !databaseLocation.isEmpty else { return }
        // One line each, from the gutter, as many as fit.
        let lines = rect.inset(top: rect.height > 1 ? 1 : 0, left: Table.gutterWidth)
        let label = "Data: "
        let path = TextLayout.truncateHead(context.line(databaseLocation), width: lines.width - label.count, ellipsis: context.glyphs.ellipsis)
        var texts = [label + path, "Holds: " + holdings]
        if let previewSummary { texts.append("Photos: " + previewSummary) }
        // What start-up recovery swept or kept, so nothing it did goes unnoticed.
        if let recoverySummary { texts.append("At start: " + context.line(recoverySummary)) }
        for (offset, text) in texts.enumerated() where offset < lines.height {
            canvas.put(text, row: lines.row + offset, column: lines.column, width: lines.width, style: .dim)
        }
    }

    /// The row's value as drawn: "‹ Last tab ›", "[on]"; in screen-reader mode without the arrows.
    func value(of row: SettingsRow) -> String {
        switch row {
        case .snapBackTarget: choice(settings.snapBackTarget.title)
        case .captureGating: toggle(settings.captureGating)
        case .tabBarPosition: choice(settings.tabBarPosition.title)
        case .tabBarOnScroll: choice(settings.tabBarMinimizesOnScroll ? "Minimize" : "Never")
        case .colorEnabled:
            if noColor { "[NO_COLOR]" } else if settings.colorEnabled && !context.options.color { "[mono term]" } else { toggle(settings.colorEnabled) }
        case .theme: choice(settings.theme?.title ?? "\(configTheme.title) (config)")
        case .autoAdvance: choice(settings.autoAdvanceMilliseconds > 0 ? "\(settings.autoAdvanceMilliseconds) ms" : "Off")
        case .freeTextCodes: toggle(settings.allowFreeTextCodes)
        case .maximumPhotos: choice("\(settings.maximumPhotos)")
        case .maximumPhotoSize: choice("\(settings.maximumPhotoBytes / (1024 * 1024)) MiB")
        case .separatorStandIn: choice(settings.separatorStandIn.map { "\u{201C}\($0)\u{201D} or 0x1D" } ?? "0x1D only")
        case .scannerLayout: choice(settings.scannerLayout.map(\.description) ?? "Same as this computer")
        case .photoPreviews:
            if settings.photoPreviews == .automatic, let automaticPreviews {
                choice("\(settings.photoPreviews.title) (\(automaticPreviews))")
            } else {
                choice(settings.photoPreviews.title)
            }
        case .clearHistory: recordCount > 0 ? "[ Delete all ]" : "empty"
        }
    }

    /// A value that cycles through choices: "‹ Last tab ›".
    /// In screen-reader mode the value alone: the arrows would be read as "less than", "greater than".
    private func choice(_ title: String) -> String {
        context.screenReader ? title : "\(context.glyphs.previousValue) \(title) \(context.glyphs.nextValue)"
    }

    /// An on/off value, bracketed so it reads as a switch without colour: "[on]", "[off]".
    private func toggle(_ isOn: Bool) -> String { isOn ? "[on]" : "[off]" }
}

extension SettingsView {
    /// The Settings tab of `state`.
    init(state: AppState, context: RenderContext) {
        self.init(
            settings: state.settings, screen: state.settingsScreen,
            databaseLocation: state.databaseLocation,
            holdings: "\(Count.noun(state.history.totalCount, "record")), \(Count.noun(state.inbox.listCount, "request"))",
            recoverySummary: state.recoverySummary,
            recordCount: state.history.totalCount,
            noColor: state.environment.noColor,
            configTheme: state.environment.theme,
            previewSummary: state.previewTerminal?.describe(state.settings.photoPreviews, usesColor: state.usesColor),
            automaticPreviews: state.previewTerminal?.automaticMethod(usesColor: state.usesColor),
            layout: state.layout, context: context
        )
    }

    /// "Theme: Dark.", said when a setting changes: its name and new value, in words.
    func changeSentence(for row: SettingsRow) -> String {
        let value = value(of: row).trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        return "\(row.title): \(value)."
    }
}
