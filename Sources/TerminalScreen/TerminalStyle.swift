import Domain
import Render
import TabShell

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

    /// A curses colour number: the terminal's own default (-1), one of the eight ANSI colours,
    /// or (with 256 colours) an index of the xterm palette.
    struct Color: RawRepresentable, Hashable, Sendable {
        let rawValue: Int16
        static let terminalDefault = Color(rawValue: -1)
        static let black = Color(rawValue: 0), red = Color(rawValue: 1), green = Color(rawValue: 2)
        static let yellow = Color(rawValue: 3), blue = Color(rawValue: 4), magenta = Color(rawValue: 5)
        static let cyan = Color(rawValue: 6), white = Color(rawValue: 7)
        /// An index of the 256-colour palette (only with `colors >= 256`).
        static func palette(_ index: Int16) -> Color { Color(rawValue: index) }
    }

    var foreground: Color
    var background: Color
    var attributes: Attributes

    // MARK: - The tables

    /// The dark theme on an eight-colour terminal (the look before themes, and the default).
    static func colored(_ style: CellStyle) -> TerminalStyle {
        colored(style, theme: .dark, colors: 8)
    }

    /// The look of `style` in `theme` when colour is on, on a terminal with `colors` colours
    /// (256 or more lets a theme use the xterm palette's greys and darker hues). Backgrounds
    /// are used sparingly (selection, buttons, alerts) so the terminal's own background shows
    /// everywhere else — except in high contrast, which paints its own black under everything.
    ///
    /// Every pair is held to WCAG 2 contrast by ThemeContrastTests (≥ 4.5:1, ≥ 7:1 in high
    /// contrast) against the palette values docs/keys.md names; the terminal's default
    /// background is taken as black for dark, white for light.
    static func colored(_ style: CellStyle, theme: ResolvedTheme, colors: Int) -> TerminalStyle {
        let wide = colors >= 256
        switch theme {
        case .dark: return dark(style, wide: wide)
        case .light: return light(style, wide: wide)
        case .highContrast: return highContrast(style, wide: wide)
        }
    }

    private static func dark(_ style: CellStyle, wide: Bool) -> TerminalStyle {
        switch style {
        case .normal, .tab: TerminalStyle(.terminalDefault, .terminalDefault)
        case .heading, .hintKey: TerminalStyle(.cyan, .terminalDefault, [.bold])
        case .dim, .hint: wide ? TerminalStyle(.palette(245), .terminalDefault) : TerminalStyle(.terminalDefault, .terminalDefault, [.dim])
        case .tabSelected: TerminalStyle(.black, .cyan, [.bold])
        case .tabAction, .success: TerminalStyle(.green, .terminalDefault, [.bold])
        case .badge: TerminalStyle(.black, .yellow, [.bold])
        case .selectedRow: TerminalStyle(.black, .cyan)
        case .button: TerminalStyle(.black, .white)
        // ANSI red on black is 3.6:1; the 256-colour light red is 6.9:1.
        case .error: wide ? TerminalStyle(.palette(203), .terminalDefault, [.bold]) : TerminalStyle(.white, .red, [.bold])
        case .toast: TerminalStyle(.black, .green)
        // ANSI blue on black is 2.2:1.
        case .border: wide ? TerminalStyle(.palette(244), .terminalDefault) : TerminalStyle(.cyan, .terminalDefault)
        case .field: TerminalStyle(.terminalDefault, .terminalDefault, [.underline])
        case .alert: wide ? TerminalStyle(.palette(231), .palette(124), [.bold]) : TerminalStyle(.white, .red, [.bold])
        }
    }

    /// On a white background: no cyan or green text (2:1 there), blue headings, dark green for
    /// `+ Create` and successes (black on green with eight colours), greys instead of dim.
    private static func light(_ style: CellStyle, wide: Bool) -> TerminalStyle {
        switch style {
        case .normal, .tab: TerminalStyle(.terminalDefault, .terminalDefault)
        case .heading, .hintKey: TerminalStyle(.blue, .terminalDefault, [.bold])
        // Dimmed black on white is under 4:1: eight colours keep hints plain.
        case .dim, .hint: wide ? TerminalStyle(.palette(242), .terminalDefault) : TerminalStyle(.terminalDefault, .terminalDefault)
        case .tabSelected: TerminalStyle(.white, .blue, [.bold])
        case .tabAction, .success: wide ? TerminalStyle(.palette(22), .terminalDefault, [.bold]) : TerminalStyle(.black, .green, [.bold])
        case .badge: TerminalStyle(.black, .yellow, [.bold])
        case .selectedRow: wide ? TerminalStyle(.black, .palette(153)) : TerminalStyle(.black, .cyan)
        case .button: TerminalStyle(.white, .black)
        case .error: wide ? TerminalStyle(.palette(124), .terminalDefault, [.bold]) : TerminalStyle(.red, .terminalDefault, [.bold])
        case .toast: TerminalStyle(.black, .green)
        case .border: wide ? TerminalStyle(.palette(242), .terminalDefault) : TerminalStyle(.blue, .terminalDefault)
        case .field: TerminalStyle(.terminalDefault, .terminalDefault, [.underline])
        case .alert: wide ? TerminalStyle(.palette(231), .palette(124), [.bold]) : TerminalStyle(.white, .red, [.bold])
        }
    }

    /// Its own black background under everything (whatever the terminal's is), white text, and
    /// only colours at 7:1 or more on black: yellow, green, cyan; light red with 256 colours.
    private static func highContrast(_ style: CellStyle, wide: Bool) -> TerminalStyle {
        let text: Color = wide ? .palette(15) : .white
        switch style {
        case .normal, .tab, .dim, .hint, .border: return TerminalStyle(text, .black)
        case .field: return TerminalStyle(text, .black, [.underline])
        case .heading: return TerminalStyle(.yellow, .black, [.bold])
        case .hintKey: return TerminalStyle(.cyan, .black, [.bold])
        case .tabSelected: return TerminalStyle(.black, text, [.bold])
        case .button: return TerminalStyle(.black, text)
        case .tabAction: return TerminalStyle(.black, .green, [.bold])
        case .toast: return TerminalStyle(.black, .green)
        case .success: return TerminalStyle(.green, .black, [.bold])
        case .badge, .selectedRow: return TerminalStyle(.black, .yellow, [.bold])
        case .error: return wide ? TerminalStyle(.palette(210), .black, [.bold]) : TerminalStyle(.yellow, .black, [.bold, .underline])
        case .alert: return wide ? TerminalStyle(.palette(231), .palette(88), [.bold]) : TerminalStyle(.black, .yellow, [.bold])
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

    init(_ foreground: Color, _ background: Color, _ attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    // MARK: - Blanks

    /// The longest run of blanks drawn in the style around it: written out, it costs at most
    /// this many bytes, against the 16 of the two colour changes it saves.
    static let longestSharedGap = 16

    /// Whether a blank drawn in this look shows the same as one drawn in `other`: a space shows
    /// its background and, of the attributes, reverse and underline; its colour, bold and dim
    /// do not show.
    func blankLooksLike(_ other: TerminalStyle) -> Bool {
        let visible: Attributes = [.reverse, .underline]
        return background == other.background && attributes.isDisjoint(with: visible) && other.attributes.isDisjoint(with: visible)
    }

    /// The style each cell of one row is drawn in: a run of blanks between two cells of one
    /// style takes that style wherever it looks the same in it (``blankLooksLike(_:)``), so
    /// "Photos  3d" in grey costs one colour change instead of three (`ESC[39m` and
    /// `ESC[38;5;245m` again around the gap: 16 bytes a gap with 256 colours). Blanks at the
    /// row's ends keep their own style: curses erases to the end of a line only in the default
    /// colours; so do gaps longer than ``longestSharedGap``, which curses erases in a few bytes
    /// (`ESC[nX`) when they are in the default colours. Photo cells (`paint`) are never changed
    /// and never lend their style.
    static func drawnStyles(_ row: ArraySlice<Cell>, look: (CellStyle) -> TerminalStyle) -> [CellStyle] {
        var styles = row.map(\.style)
        var gapStart: Int?
        var left: CellStyle?
        for index in row.indices {
            let cell = row[index]
            if cell.isContinuation { continue }  // the right half of the wide cell before it
            if cell.paint == nil, cell.text == " " {
                if gapStart == nil { gapStart = index }
                continue
            }
            if let start = gapStart, let shared = left, cell.paint == nil, cell.style == shared, index - start <= longestSharedGap {
                let sharedLook = look(shared)
                for blank in start..<index where styles[blank - row.startIndex] != shared {
                    if look(styles[blank - row.startIndex]).blankLooksLike(sharedLook) { styles[blank - row.startIndex] = shared }
                }
            }
            gapStart = nil
            left = cell.paint == nil ? cell.style : nil
        }
        return styles
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
        // Printable ASCII, most cells of a frame: one column, nothing to look up.
        if columns >= 1, text.utf8.count == 1, let byte = text.utf8.first, (0x20..<0x7F).contains(byte) {
            return ([Unicode.Scalar(byte)], padsWide)
        }
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
