import Domain
import TabShell
import Testing

@testable import TerminalInput

/// The auto theme: OSC 11's answer read among the keys, and dark or light chosen.
@Suite struct BackgroundAnswerTests {
    static func answers(_ text: String) -> (TerminalAnswers, [Key]) {
        var decoder = InputDecoder()
        var answers = TerminalAnswers()
        var keys: [Key] = []
        for event in decoder.feed(text) + decoder.timeOut() {
            switch event {
            case let .reply(reply): answers.take(reply)
            case let .key(key): keys.append(key)
            case .click, .wheel: break
            }
        }
        return (answers, keys)
    }

    @Test func theQueryAsksTheBackgroundBeforePrimaryAttributes() throws {
        let query = TerminalQuery.text
        let background = try #require(query.range(of: "\u{1B}]11;?\u{1B}\\"))
        let primary = try #require(query.range(of: "\u{1B}[c"))
        #expect(background.upperBound <= primary.lowerBound)
    }

    @Test(arguments: [
        ("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\", ResolvedTheme.light),  // xterm -bg white
        ("\u{1B}]11;rgb:0000/0000/0000\u{1B}\\", .dark),
        ("\u{1B}]11;rgb:fdf6/f6e3/e3e3\u{07}", .light),  // BEL-ended, Solarized light's base3
        ("\u{1B}]11;rgb:00/2b/36\u{1B}\\", .dark),  // two digits: Solarized dark's base03
        ("\u{1B}]11;rgb:f/f/f\u{1B}\\", .light),  // one digit a channel
        ("\u{1B}]11;rgb:ccc/ccc/ccc\u{1B}\\", .light),  // three
        ("\u{1B}]11;rgb:3030/3030/3030\u{1B}\\", .dark),
    ])
    func autoFollowsTheAnswer(answer: String, expected: ResolvedTheme) {
        let (answers, keys) = Self.answers(answer + "\u{1B}[?62;22c")
        #expect(answers.background != nil)
        #expect(answers.isComplete)
        #expect(Theme.auto.resolved(background: answers.background) == expected)
        #expect(keys.isEmpty)
    }

    @Test func noAnswerIsDark() {
        let (answers, _) = Self.answers("\u{1B}[?62;22c")
        #expect(answers.background == nil)
        #expect(Theme.auto.resolved(background: nil) == .dark)
    }

    /// Garbage is not taken (the theme stays dark), never crashes, and types no keys.
    @Test(arguments: [
        "\u{1B}]11;rgb:fffff/ffff/ffff\u{1B}\\",  // five digits
        "\u{1B}]11;rgb:ffff/ffff\u{1B}\\",  // two channels
        "\u{1B}]11;rgb:ffff/ffff/ffff/ffff\u{1B}\\",
        "\u{1B}]11;rgb:gggg/ffff/ffff\u{1B}\\",
        "\u{1B}]11;rgb://\u{1B}\\",
        "\u{1B}]11;rgba:ffff/ffff/ffff/ffff\u{1B}\\",
        "\u{1B}]11;#ffffff\u{1B}\\",
        "\u{1B}]11;rgb:+fff/ffff/ffff\u{1B}\\",
        "\u{1B}]11;rgb:\u{FF46}\u{FF46}/ff/ff\u{1B}\\",  // fullwidth f
        "\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\",  // the foreground, not the background
        "\u{1B}]11;?\u{1B}\\",
        "\u{1B}]11;rgb:" + String(repeating: "f", count: 5000) + "\u{1B}\\",
        "\u{1B}]11;" + String(repeating: "rgb:ffff/ffff/ffff", count: 300) + "\u{1B}\\",
    ])
    func garbageIsIgnored(answer: String) {
        let (answers, keys) = Self.answers(answer + "\u{1B}[?62;22c")
        #expect(answers.background == nil)
        #expect(Theme.auto.resolved(background: answers.background) == .dark)
        #expect(answers.isComplete)
        #expect(keys.isEmpty)
    }

    @Test func chosenThemesIgnoreTheBackground() {
        let white = BackgroundColor(red: 1, green: 1, blue: 1)
        #expect(Theme.dark.resolved(background: white) == .dark)
        #expect(Theme.highContrast.resolved(background: white) == .highContrast)
        #expect(Theme.light.resolved(background: nil) == .light)
    }

    /// The line between dark and light is where black and white text read equally well
    /// (luminance ≈ 0.179): grey 0x77 is just past it, 0x70 just before.
    @Test func midGreysSplitWhereBlackAndWhiteTextAreEqual() {
        #expect(BackgroundColor(x11: "rgb:7777/7777/7777")?.isLight == true)
        #expect(BackgroundColor(x11: "rgb:7070/7070/7070")?.isLight == false)
    }

    /// COLORFGBG's last number is the background of the 16-colour palette: 0–6 and 8 dark,
    /// 7 and 9–15 light; anything else leaves the question to the terminal.
    @Test(arguments: [
        ("15;0", false), ("0;15", true), ("0;default;15", true), ("7;8", false), ("0;7", true), ("15;6", false),
        ("12;9", true),
    ])
    func colorFGBGSaysTheBackground(value: String, light: Bool) {
        #expect(BackgroundColor(colorFGBG: value)?.isLight == light, "\(value)")
    }

    @Test(arguments: [nil, "", "15;default", "0;16", "0;-1", "0;١٥", "0;" + String(repeating: "1", count: 40), "garbage"])
    func colorFGBGThatSaysNothingIsNil(value: String?) {
        #expect(BackgroundColor(colorFGBG: value) == nil, "\(String(describing: value))")
    }
}

/// The questions the app sends at start: the background colour only when it is asked for, and
/// primary device attributes last (its answer ends the wait).
@Suite struct TerminalQueryTextTests {
    @Test func theBackgroundIsAskedOnlyWhenNeeded() {
        #expect(TerminalQuery.text(askingBackground: true).contains(TerminalQuery.backgroundColor))
        #expect(!TerminalQuery.text(askingBackground: false).contains(TerminalQuery.backgroundColor))
        #expect(TerminalQuery.text(askingBackground: false).hasSuffix(TerminalQuery.primaryAttributes))
        #expect(TerminalQuery.text == TerminalQuery.text(askingBackground: true))
    }
}
