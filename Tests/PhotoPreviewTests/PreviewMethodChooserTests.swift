import PhotoPreview
import Testing

@Suite struct PreviewMethodChooserTests {
    static let utf8 = TerminalEnvironment(isUTF8: true, insideMultiplexer: false, noColor: false)
    static let kitty = TerminalReplies.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c".utf8))
    static let sixel = TerminalReplies.parse(Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8))
    static let iTerm2 = TerminalReplies.parse(Array("\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c".utf8))
    static let tmux = TerminalReplies.parse(Array("\u{1B}P>|tmux 3.4\u{1B}\\\u{1B}[>84;0;0c\u{1B}[?1;2;4c".utf8))
    static let plain = TerminalReplies.parse(Array("\u{1B}[?6c".utf8))

    static func method(_ replies: TerminalReplies?, _ environment: TerminalEnvironment = utf8, setting: PreviewSetting = .automatic) -> PreviewMethod {
        PreviewMethodChooser.choose(setting: setting, replies: replies, environment: environment).method
    }

    @Test func automaticTakesTheBestProtocolOnOffer() {
        #expect(Self.method(Self.kitty) == .kitty)
        #expect(Self.method(Self.iTerm2) == .iterm2)
        #expect(Self.method(Self.sixel) == .sixel)
        #expect(Self.method(Self.plain) == .blocks)
        #expect(Self.method(nil) == .blocks)
        #expect(Self.method(TerminalReplies()) == .blocks)
    }

    /// tmux 3.4 built with sixel lists 4 too, but drops images without passthrough.
    @Test func insideTmuxAutomaticPicksBlocks() {
        #expect(Self.method(Self.tmux) == .blocks)
        let inside = TerminalEnvironment(isUTF8: true, insideMultiplexer: true, noColor: false)
        #expect(Self.method(Self.kitty, inside) == .blocks)
        let choice = PreviewMethodChooser.choose(setting: .automatic, replies: Self.sixel, environment: inside)
        #expect(choice.reason.contains("tmux"))
    }

    @Test func aLocaleWithoutUTF8GetsASCII() {
        let latin1 = TerminalEnvironment(isUTF8: false, insideMultiplexer: false, noColor: false)
        #expect(Self.method(Self.plain, latin1) == .ascii)
        #expect(Self.method(Self.kitty, latin1, setting: .blocks) == .ascii)
        #expect(Self.method(Self.kitty, latin1) == .kitty)
    }

    @Test func noColorKeepsToSymbols() {
        let noColor = TerminalEnvironment(isUTF8: true, insideMultiplexer: false, noColor: true)
        #expect(Self.method(Self.kitty, noColor) == .blocks)
        #expect(PreviewMethod.blocks.renderMode(colors: .monochrome) == .symbols(.blocks, .monochrome))
        #expect(PreviewMethod.kitty.renderMode(colors: .monochrome) == .symbols(.blocks, .monochrome))
    }

    @Test func theSettingWins() {
        #expect(Self.method(Self.kitty, setting: .off) == .off)
        #expect(Self.method(Self.kitty, setting: .blocks) == .blocks)
        #expect(PreviewMethod.off.renderMode(colors: .truecolor) == nil)
    }

    @Test func everyChoiceSaysWhy() {
        for replies in [Self.kitty, Self.sixel, Self.iTerm2, Self.tmux, Self.plain] {
            for setting in PreviewSetting.allCases {
                #expect(!PreviewMethodChooser.choose(setting: setting, replies: replies, environment: Self.utf8).reason.isEmpty)
            }
        }
    }

    @Test func colorDepthFromTheEnvironment() {
        #expect(ColorDepth.detect(noColor: true, colorCount: 256, colorTerm: "truecolor") == .monochrome)
        #expect(ColorDepth.detect(noColor: false, colorCount: 256, colorTerm: "truecolor") == .truecolor)
        #expect(ColorDepth.detect(noColor: false, colorCount: 256, colorTerm: "24bit") == .truecolor)
        #expect(ColorDepth.detect(noColor: false, colorCount: 256, colorTerm: nil) == .palette256)
        #expect(ColorDepth.detect(noColor: false, colorCount: 8, colorTerm: nil) == .palette16)
        #expect(ColorDepth.detect(noColor: false, colorCount: 0, colorTerm: nil) == .monochrome)
    }
}
