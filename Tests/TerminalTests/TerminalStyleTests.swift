import Render
import Testing

@testable import TerminalScreen

/// The CellStyle → look table, in colour and in monochrome.
@Suite struct TerminalStyleTableTests {
    private static let visible: TerminalStyle.Attributes = [.reverse, .bold, .underline]

    @Test func normalIsPlainInBothModes() {
        #expect(TerminalStyle.monochrome(.normal) == [])
        let colored = TerminalStyle.colored(.normal)
        #expect(colored.attributes == [])
        #expect(colored.foreground == .terminalDefault)
        #expect(colored.background == .terminalDefault)
    }

    @Test(arguments: [CellStyle.tabSelected, .selectedRow, .button])
    func selectionLikeStylesStandOutWithoutColour(style: CellStyle) {
        let attributes = TerminalStyle.monochrome(style)
        #expect(!attributes.isDisjoint(with: Self.visible), "\(style) is invisible in monochrome: \(attributes.rawValue)")
    }

    @Test func selectedTabAndRowAreReversedInMonochrome() {
        #expect(TerminalStyle.monochrome(.tabSelected).contains(.reverse))
        #expect(TerminalStyle.monochrome(.selectedRow).contains(.reverse))
        #expect(TerminalStyle.monochrome(.tabSelected) != TerminalStyle.monochrome(.tab))
        #expect(TerminalStyle.monochrome(.selectedRow) != TerminalStyle.monochrome(.normal))
    }

    /// Whatever a background colour alone marked (selection, buttons, badges, toasts, alerts)
    /// must still be marked by a visible attribute when colour is off.
    @Test(arguments: CellStyle.allCases)
    func stylesWithABackgroundColourStayMarkedInMonochrome(style: CellStyle) {
        guard TerminalStyle.colored(style).background != .terminalDefault else { return }
        #expect(!TerminalStyle.monochrome(style).isDisjoint(with: Self.visible), "\(style)")
    }

    /// Turning colour off never removes an attribute the colour look has (a bold heading stays
    /// bold, an underlined field stays underlined).
    @Test(arguments: CellStyle.allCases)
    func monochromeKeepsTheColourLooksAttributes(style: CellStyle) {
        let colored = TerminalStyle.colored(style).attributes
        #expect(TerminalStyle.monochrome(style).isSuperset(of: colored), "\(style)")
    }

    /// Text is never drawn in its own background colour.
    @Test(arguments: CellStyle.allCases)
    func foregroundDiffersFromBackground(style: CellStyle) {
        let look = TerminalStyle.colored(style)
        if look.background != .terminalDefault {
            #expect(look.foreground != look.background, "\(style)")
        }
    }

    @Test func errorAndAlertDifferFromNormalInMonochrome() {
        #expect(TerminalStyle.monochrome(.error) != [])
        #expect(TerminalStyle.monochrome(.alert) != [])
        #expect(TerminalStyle.monochrome(.field).contains(.underline), "an input field needs its underline")
    }
}

/// `TerminalStyle.drawable`: what one grid cell sends to curses.
@Suite struct TerminalStyleCellTextTests {
    /// A deterministic stand-in for wcwidth, so the tests do not depend on the C locale.
    private static func width(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .unassigned: return -1
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isVariationSelector { return 0 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF:
            return 2
        default: return 1
        }
    }

    private func draw(_ text: String, _ columns: Int = 1, unicode: Bool = true) -> (scalars: [UInt32], pads: Bool) {
        let result = TerminalStyle.drawable(text, columns: columns, unicode: unicode, width: Self.width)
        return (result.scalars.map(\.value), result.padsContinuation)
    }

    @Test func plainCharacterGoesThroughAsIs() {
        #expect(draw("a") == ([0x61], false))
        #expect(draw("é") == ([0xE9], false))
    }

    /// Printable ASCII (most of a frame) is sent as it is, one column, with or without Unicode.
    @Test func everyPrintableASCIICharacterGoesThroughAsIs() {
        for value in UInt32(0x20)..<0x7F {
            let text = String(Character(Unicode.Scalar(value)!))
            for unicode in [true, false] {
                #expect(draw(text, unicode: unicode) == ([value], false))
                #expect(draw(text, 2, unicode: unicode) == ([value], true))
            }
        }
        #expect(draw("\u{7F}") == ([0xFFFD], false), "DEL is a control")
    }

    @Test func wideCharacterInTwoColumns() {
        #expect(draw("中", 2) == ([0x4E2D], false))
        #expect(draw("😀", 2) == ([0x1F600], false))
    }

    @Test func widthMismatchFallsBackToAOneColumnMark() {
        #expect(draw("中", 1) == ([0xFFFD], false), "too wide for the one column planned")
        #expect(draw("a", 2) == ([0x61], true), "narrower than planned: pad the continuation")
        #expect(draw("\u{301}", 1) == ([0xFFFD], false), "a lone zero-width mark is no base")
        #expect(draw("\u{301}", 2) == ([0xFFFD], true))
    }

    @Test func combiningMarksAndVariationSelectorsStayWithTheirBase() {
        #expect(draw("e\u{301}") == ([0x65, 0x301], false))
        #expect(draw("❤\u{FE0F}") == ([0x2764, 0xFE0F], false))
    }

    @Test func atMostFiveScalarsPerCell() {
        #expect(TerminalStyle.maximumScalarsPerCell == 5)
        let zalgo = "a" + String(repeating: "\u{301}", count: 8)
        #expect(draw(zalgo).scalars == [0x61, 0x301, 0x301, 0x301, 0x301])
    }

    @Test func zwjSequenceKeepsItsFirstEmoji() {
        #expect(draw("👨‍👩‍👧", 2) == ([0x1F468], false))
    }

    @Test func emptyCellIsABlank() {
        #expect(draw("") == ([0x20], false))
        #expect(draw("", 2) == ([0x20], true))
    }

    @Test func withoutUnicodeOnlyPrintableASCIIPasses() {
        #expect(draw("a", unicode: false) == ([0x61], false))
        #expect(draw("é", unicode: false) == ([0x3F], false))
        #expect(draw("e\u{301}", unicode: false) == ([0x3F], false))
        #expect(draw("中", 2, unicode: false) == ([0x3F], true))
    }

    private static let hostile = [
        "\u{1B}", "\u{1B}[31m", "\u{1B}]0;title\u{7}", "\u{7}", "\u{0}", "\u{8}", "\t", "\n", "\r",
        "\u{7F}", "\u{9B}", "\u{9B}2J", "\u{85}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{200B}",
        "\u{FEFF}", "\r\n", "\u{1B}\u{301}",
    ]

    /// A hostile cell text, described escaped so the test log never sends it to a terminal raw.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let text: String
        var testDescription: String { text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
    }

    @Test(arguments: hostile.map(Hostile.init))
    func controlCharactersNeverPassThroughRaw(hostile: Hostile) {
        let text = hostile.text
        for unicode in [true, false] {
            for columns in [1, 2] {
                let scalars = TerminalStyle.drawable(text, columns: columns, unicode: unicode, width: Self.width).scalars
                #expect(scalars == [unicode ? "\u{FFFD}" : "?"], "\(text.unicodeScalars.map(\.value)) unicode=\(unicode) columns=\(columns)")
            }
        }
    }

    /// A printable base followed by controls (a grid cell should never hold this, but data is
    /// data) sends the base and stops: the controls are not appended as "marks".
    @Test func controlsAfterAPrintableBaseAreCutOff() {
        #expect(draw("a\u{1B}[2J").scalars == [0x61])
        #expect(draw("e\u{301}\u{1B}").scalars == [0x65, 0x301])
        #expect(draw("a\u{202E}").scalars == [0x61])
        #expect(draw("a\u{1B}", unicode: false).scalars == [0x3F])
    }

    /// The same rule stated over every output: nothing that reaches curses is a control,
    /// format or separator character, whatever the terminal thinks the widths are.
    @Test func noOutputScalarIsEverAControl() {
        let widths: [(Unicode.Scalar) -> Int] = [Self.width, { _ in 1 }, { _ in 2 }, { _ in 0 }, { _ in -1 }]
        let samples = Self.hostile + ["a", "中", "e\u{301}", "👨‍👩‍👧", "a\u{1B}", "\u{301}\u{1B}", ""]
        for text in samples {
            for width in widths {
                for unicode in [true, false] {
                    for columns in [1, 2] {
                        let scalars = TerminalStyle.drawable(text, columns: columns, unicode: unicode, width: width).scalars
                        #expect(!scalars.isEmpty)
                        for scalar in scalars {
                            switch scalar.properties.generalCategory {
                            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
                                Issue.record("\(scalar.value) from \(text.unicodeScalars.map(\.value))")
                            default: break
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Blanks between two cells of one style are drawn in it where they look the same, so a gap
/// costs no colour changes.
@Suite struct TerminalStyleBlankGapTests {
    /// A row from a compact description: a letter is a cell of that style ("d" dim, "n"
    /// normal, "s" selected row, "f" field, "p" a photo cell), a digit a blank of that style
    /// ("1" dim, "0" normal, "5" selected row, "6" field).
    private static func row(_ text: String) -> [Cell] {
        text.map { letter -> Cell in
            switch letter {
            case "d": Cell("x", style: .dim)
            case "n": Cell("x", style: .normal)
            case "s": Cell("x", style: .selectedRow)
            case "f": Cell("x", style: .field)
            case "p": Cell(" ", style: .dim, paint: CellPaint(foreground: nil, background: nil))
            case "1": Cell(" ", style: .dim)
            case "5": Cell(" ", style: .selectedRow)
            case "6": Cell(" ", style: .field)
            default: Cell(" ", style: .normal)
            }
        }
    }

    private static func drawn(_ text: String, colors: Int = 256, monochrome: Bool = false) -> [CellStyle] {
        let cells = row(text)
        return TerminalStyle.drawnStyles(cells[...]) { style in
            monochrome
                ? TerminalStyle(.terminalDefault, .terminalDefault, TerminalStyle.monochrome(style))
                : TerminalStyle.colored(style, theme: .dark, colors: colors)
        }
    }

    @Test func aGapBetweenTwoGreyWordsIsDrawnGrey() {
        #expect(drawnGapStyles("dd00dd") == [.dim, .dim])
        #expect(drawnGapStyles("dd00dd", monochrome: true) == [.dim, .dim])
        #expect(drawnGapStyles("dd00dd", colors: 8) == [.dim, .dim])
        // A gap already partly grey is made all grey.
        #expect(drawnGapStyles("d010d") == [.dim, .dim, .dim])
    }

    @Test func blanksAtTheRowsEndsKeepTheirStyle() {
        #expect(Self.drawn("00dd00") == Self.row("00dd00").map(\.style))
        #expect(Self.drawn("dd000") == Self.row("dd000").map(\.style))
    }

    @Test func aGapBetweenDifferentStylesKeepsItsStyle() {
        #expect(Self.drawn("dd00nn") == Self.row("dd00nn").map(\.style))
    }

    /// A background, an underline or reverse video shows on a blank: those gaps stay.
    @Test func aGapThatWouldLookDifferentKeepsItsStyle() {
        #expect(Self.drawn("ss00ss") == Self.row("ss00ss").map(\.style))  // selected row: a background
        #expect(Self.drawn("dd66dd") == Self.row("dd66dd").map(\.style))  // a field's underline
        #expect(Self.drawn("ff00ff") == Self.row("ff00ff").map(\.style))
        #expect(Self.drawn("ss00ss", monochrome: true) == Self.row("ss00ss").map(\.style))  // reverse
    }

    @Test func photoCellsAreNeverRestyledAndLendNothing() {
        #expect(Self.drawn("dpd") == Self.row("dpd").map(\.style))
        #expect(Self.drawn("p00p") == Self.row("p00p").map(\.style))
    }

    /// A long gap stays in the default colours, which curses erases in a few bytes.
    @Test func aGapLongerThanTheLimitKeepsItsStyle() {
        let limit = TerminalStyle.longestSharedGap
        #expect(drawnGapStyles("d" + String(repeating: "0", count: limit) + "d") == Array(repeating: .dim, count: limit))
        let long = "d" + String(repeating: "0", count: limit + 1) + "d"
        #expect(Self.drawn(long) == Self.row(long).map(\.style))
    }

    /// The styles the blanks of `text` (the cells after its first and before its last) are drawn in.
    private func drawnGapStyles(_ text: String, colors: Int = 256, monochrome: Bool = false) -> [CellStyle] {
        let styles = Self.drawn(text, colors: colors, monochrome: monochrome)
        let cells = Self.row(text)
        return zip(cells, styles).filter { $0.0.text == " " }.map(\.1)
    }
}
