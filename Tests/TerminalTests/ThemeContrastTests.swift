import Domain
import Foundation
import Render
import TabShell
import Testing

@testable import TerminalScreen

/// WCAG 2 contrast of every foreground/background pair each theme draws: at least
/// 4.5:1 for text, 7:1 in high contrast, on eight-colour and 256-colour terminals.
///
/// Colour numbers are resolved to sRGB with xterm's default palette (the 16 ANSI colours as
/// xterm sets them, the 6×6×6 cube and the grey ramp); the terminal's default colours are the
/// theme's assumed ones: white text on black for dark (and high contrast, which paints its own
/// black), black text on white for light. Dim is taken as the foreground halfway to the
/// background, about what xterm and VTE draw. Bold changes nothing here (a terminal that
/// brightens bold colours only raises the contrast on black).
@Suite struct ThemeContrastTests {
    struct RGB: Equatable, CustomStringConvertible {
        var red, green, blue: Double  // 0…255
        var description: String { "(\(Int(red)),\(Int(green)),\(Int(blue)))" }

        var luminance: Double {
            BackgroundColor(red: red / 255, green: green / 255, blue: blue / 255).luminance
        }

        func mixed(with other: RGB, _ share: Double) -> RGB {
            RGB(
                red: red + (other.red - red) * share, green: green + (other.green - green) * share,
                blue: blue + (other.blue - blue) * share)
        }
    }

    static let ansi: [RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ].map { RGB(red: $0.0, green: $0.1, blue: $0.2) }

    /// xterm's palette entry `index` (0…255).
    static func xterm(_ index: Int) -> RGB {
        switch index {
        case 0..<16:
            return ansi[index]
        case 16..<232:
            let levels: [Double] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return RGB(red: levels[cube / 36], green: levels[cube / 6 % 6], blue: levels[cube % 6])
        default:
            let grey = Double(8 + 10 * (index - 232))
            return RGB(red: grey, green: grey, blue: grey)
        }
    }

    static func contrast(_ a: RGB, _ b: RGB) -> Double {
        let (high, low) = (max(a.luminance, b.luminance), min(a.luminance, b.luminance))
        return (high + 0.05) / (low + 0.05)
    }

    /// The colours a cell of `style` shows in `theme`: (foreground, background).
    static func drawn(_ style: CellStyle, theme: ResolvedTheme, colors: Int) -> (RGB, RGB) {
        let look = TerminalStyle.colored(style, theme: theme, colors: colors)
        let white = RGB(red: 255, green: 255, blue: 255), black = RGB(red: 0, green: 0, blue: 0)
        let (defaultForeground, defaultBackground) = theme == .light ? (black, white) : (white, black)
        var foreground = look.foreground == .terminalDefault ? defaultForeground : xterm(Int(look.foreground.rawValue))
        var background = look.background == .terminalDefault ? defaultBackground : xterm(Int(look.background.rawValue))
        if look.attributes.contains(.reverse) { swap(&foreground, &background) }
        if look.attributes.contains(.dim) { foreground = foreground.mixed(with: background, 0.5) }
        return (foreground, background)
    }

    static func minimum(for theme: ResolvedTheme) -> Double { theme == .highContrast ? 7 : 4.5 }

    @Test(arguments: ResolvedTheme.allCases, [8, 256])
    func everyPairReadsWell(theme: ResolvedTheme, colors: Int) {
        var lowest = (ratio: Double.infinity, style: CellStyle.normal)
        for style in CellStyle.allCases {
            let (foreground, background) = Self.drawn(style, theme: theme, colors: colors)
            let ratio = Self.contrast(foreground, background)
            #expect(
                ratio >= Self.minimum(for: theme),
                "\(theme) with \(colors) colours: \(style) is \(foreground) on \(background), \(String(format: "%.2f", ratio)):1")
            if ratio < lowest.ratio { lowest = (ratio, style) }
        }
        print("contrast: \(theme) with \(colors) colours: lowest \(String(format: "%.2f", lowest.ratio)):1 (\(lowest.style))")
    }

    /// Eight-colour tables stay within the eight colours; wider ones within the palette.
    @Test(arguments: ResolvedTheme.allCases, [8, 256])
    func colourNumbersFitTheTerminal(theme: ResolvedTheme, colors: Int) {
        for style in CellStyle.allCases {
            let look = TerminalStyle.colored(style, theme: theme, colors: colors)
            for color in [look.foreground, look.background] {
                #expect((-1..<Int16(min(colors, 256))).contains(color.rawValue), "\(theme) \(style)")
            }
        }
    }

    /// What was weak on white: bold cyan titles and bold green `+ Create` are not the
    /// light theme's.
    @Test(arguments: [8, 256])
    func lightAvoidsCyanAndGreenText(colors: Int) {
        for style in [CellStyle.heading, .hintKey, .tabAction, .success] {
            let look = TerminalStyle.colored(style, theme: .light, colors: colors)
            #expect(look.foreground != .cyan && look.foreground != .green, "\(style)")
        }
    }

    @Test func theArithmeticIsWCAGs() {
        let white = RGB(red: 255, green: 255, blue: 255), black = RGB(red: 0, green: 0, blue: 0)
        #expect(abs(Self.contrast(white, black) - 21) < 0.001)
        #expect(abs(Self.contrast(Self.xterm(4), white) - 9.40) < 0.01)
        #expect(Self.xterm(196) == RGB(red: 255, green: 0, blue: 0))
        #expect(Self.xterm(244) == RGB(red: 128, green: 128, blue: 128))
        // The old dark palette's border, ANSI blue on black, was 2.2:1.
        #expect(Self.contrast(Self.xterm(4), black) < 2.3)
    }

    /// The themes differ where it matters, so a theme change is visible.
    @Test func themesDiffer() {
        #expect(TerminalStyle.colored(.heading, theme: .light, colors: 256) != TerminalStyle.colored(.heading, theme: .dark, colors: 256))
        #expect(TerminalStyle.colored(.normal, theme: .highContrast, colors: 8).background == .black)
    }
}
