import Foundation
import TabShell

/// The clipboard: OSC 52, which xterm, kitty, WezTerm, iTerm2, Windows Terminal, foot and tmux
/// (`set -g set-clipboard on`) read. It is only bytes to the terminal, so it works over SSH.
extension Terminal {
    /// Puts `text` on the clipboard of the terminal the app runs in.
    public func copyToClipboard(_ text: String) {
        guard screen != nil else { return }
        writeToTTY(Self.clipboardSequence(text))
    }

    /// `ESC ] 52 ; c ; <base64> ESC \`: the text base64-encoded (so nothing in it can act on the
    /// terminal), for the clipboard selection `c`, ended by ST.
    public static func clipboardSequence(_ text: String) -> String {
        "\u{1b}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{1b}\\"
    }
}
