import Render

/// How each kind of cell looks on this terminal: the one place that maps `CellStyle` to colours
/// and attributes (as tig does), with a monochrome rendering for every kind. Pure: Terminal.swift
/// turns these values into curses attributes and colour pairs.
struct TerminalStyle: Equatable, Sendable {
    /// Text attributes, independent of curses so the table can be tested without a terminal.
    struct Attributes: OptionSet, Equatable, Sendable {
        let rawValue: UInt8
        static let bold = Attributes(rawValue: 1 << 0)
        static let dim = Attributes(rawValue: 1 << 1)
        static let reverse = Attributes(rawValue: 1 << 2)
        static let underline = Attributes(rawValue: 1 << 3)
    }

    /// The eight ANSI colours (curses colour numbers), plus the terminal's own default.
    enum Color: Int16, Sendable {
        case terminalDefault = -1
        case black = 0, red, green, yellow, blue, magenta, cyan, white
    }

    var foreground: Color
    var background: Color
    var attributes: Attributes

    // MARK: - The table

    /// The look of `style` when colour is on. Backgrounds are used sparingly (selection,
    /// buttons, alerts) so the terminal's own background shows everywhere else.
    static func colored(_ style: CellStyle) -> TerminalStyle {
        switch style {
        case .normal, .tab: TerminalStyle(.terminalDefault, .terminalDefault)
        case .heading: TerminalStyle(.cyan, .terminalDefault, [.bold])
        case .dim, .hint: TerminalStyle(.terminalDefault, .terminalDefault, [.dim])
        case .tabSelected: TerminalStyle(.black, .cyan, [.bold])
        case .tabAction: TerminalStyle(.green, .terminalDefault, [.bold])
        case .badge: TerminalStyle(.black, .yellow, [.bold])
        case .hintKey: TerminalStyle(.cyan, .terminalDefault, [.bold])
        case .selectedRow: TerminalStyle(.black, .cyan)
        case .button: TerminalStyle(.black, .white)
        case .error: TerminalStyle(.red, .terminalDefault, [.bold])
        case .success: TerminalStyle(.green, .terminalDefault, [.bold])
        case .toast: TerminalStyle(.black, .green)
        case .border: TerminalStyle(.blue, .terminalDefault)
        case .field: TerminalStyle(.terminalDefault, .terminalDefault, [.underline])
        case .alert: TerminalStyle(.white, .red, [.bold])
        }
    }

    /// The look of `style` without colour (NO_COLOR, colour off in Settings, or a terminal
    /// without colours). Whatever colour alone marked must still stand out: selection is
    /// reverse+bold, so the selected tab and row stay visible.
    static func monochrome(_ style: CellStyle) -> Attributes {
        switch style {
        case .normal, .tab, .border: []
        case .heading, .hintKey, .badge, .tabAction, .success: [.bold]
        case .dim, .hint: [.dim]
        case .tabSelected, .selectedRow, .alert: [.reverse, .bold]
        case .button, .toast: [.reverse]
        case .error: [.bold, .underline]
        case .field: [.underline]
        }
    }

    private init(_ foreground: Color, _ background: Color, _ attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    // MARK: - Cell text

    /// Curses keeps at most this many scalars per cell (CCHARW_MAX): a base and four marks.
    static let maximumScalarsPerCell = 5

    /// What to send for one cell whose grapheme is `text` and which the grid gives `columns`
    /// columns (2 when the next cell is its continuation), given the terminal's idea of each
    /// scalar's width (`wcwidth`).
    ///
    /// Curses positions every cell itself, so alignment holds as long as each cell sends one
    /// spacing character exactly as wide as the grid planned: the base scalar plus the
    /// zero-width marks after it (accents, variation selectors). A ZWJ sequence keeps its first
    /// emoji, because terminals disagree on how wide the joined glyph is. Where the terminal
    /// would draw the base wider or narrower than planned, a one-column mark goes instead, and
    /// `padsContinuation` asks for a blank in the continuation cell so nothing stale shows
    /// there. Control characters also become a mark, so text from data can never reach the
    /// terminal as an escape sequence. Without a UTF-8 locale (`unicode` false) everything
    /// outside printable ASCII becomes "?".
    static func drawable(
        _ text: String, columns: Int, unicode: Bool, width: (Unicode.Scalar) -> Int
    ) -> (scalars: [Unicode.Scalar], padsContinuation: Bool) {
        let mark: Unicode.Scalar = unicode ? "\u{FFFD}" : "?"
        let padsWide = columns > 1
        guard let base = text.unicodeScalars.first else { return ([" "], padsWide) }
        guard unicode else {
            let isASCII = (0x20..<0x7F).contains(base.value) && text.unicodeScalars.count == 1
            return ([isASCII ? base : "?"], padsWide)
        }
        guard !isControl(base) else { return ([mark], padsWide) }
        let baseWidth = width(base)
        guard baseWidth >= 1, baseWidth <= columns else { return ([mark], padsWide) }
        var scalars = [base]
        for scalar in text.unicodeScalars.dropFirst() {
            guard scalars.count < maximumScalarsPerCell, isZeroWidthMark(scalar) else { break }
            scalars.append(scalar)
        }
        return (scalars, baseWidth < columns)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func isZeroWidthMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: scalar.properties.isVariationSelector
        }
    }
}
