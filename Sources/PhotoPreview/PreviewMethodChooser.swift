/// Chooses how photos are shown from the user's setting, the terminal's answers and the locale.
/// Pure: the front end asks the terminal and reads the environment, then calls this.
public enum PreviewMethodChooser {
    /// `replies` is nil when the terminal did not answer in time.
    public static func choose(
        setting: PreviewSetting, replies: TerminalReplies?, environment: TerminalEnvironment
    ) -> PreviewChoice {
        switch setting {
        case .off:
            return PreviewChoice(method: .off, reason: "Photo previews are turned off in Settings.")
        case .blocks:
            return symbols(because: "Settings ask for blocks.", environment: environment)
        case .automatic:
            return automatic(replies: replies, environment: environment)
        }
    }

    private static func automatic(replies: TerminalReplies?, environment: TerminalEnvironment) -> PreviewChoice {
        guard let replies, replies.isComplete else {
            return symbols(because: "The terminal did not answer the graphics queries.", environment: environment)
        }
        if environment.insideMultiplexer || replies.fromMultiplexer {
            return symbols(
                because: "Inside tmux or screen, which drop graphics unless passthrough is on.",
                environment: environment
            )
        }
        if environment.noColor {
            return symbols(because: "NO_COLOR is set.", environment: environment)
        }
        if replies.kittyGraphics {
            return PreviewChoice(method: .kitty, reason: "The terminal answered the kitty graphics query.")
        }
        if replies.supportsITerm2Images {
            let name = replies.terminalVersion ?? "The terminal"
            return PreviewChoice(method: .iterm2, reason: "\(name) shows iTerm2 inline images.")
        }
        if replies.advertisesSixel {
            return PreviewChoice(method: .sixel, reason: "The terminal lists sixel graphics in its device attributes.")
        }
        return symbols(because: "The terminal reports no graphics protocol.", environment: environment)
    }

    /// Blocks, or ASCII shades when the locale cannot show block characters.
    private static func symbols(because reason: String, environment: TerminalEnvironment) -> PreviewChoice {
        if environment.isUTF8 {
            return PreviewChoice(method: .blocks, reason: reason)
        }
        return PreviewChoice(method: .ascii, reason: reason + " The locale is not UTF-8, so ASCII shades.")
    }
}
