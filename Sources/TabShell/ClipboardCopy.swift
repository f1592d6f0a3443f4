import Domain
import Foundation

/// Text for the terminal's clipboard (OSC 52, which the front end writes) and the status line
/// that says what was copied. The text is sent base64-encoded, so nothing in it can act on the
/// terminal; the status line's preview of it is made printable with the `Sanitizer`.
public enum ClipboardCopy {
    /// The most base64 an OSC 52 copy carries (about 73 KiB of text). Terminals and tmux cap
    /// what they take (xterm's default, tmux's input buffer); past this the copy is refused
    /// with a sentence rather than cut short or lost without a word.
    public static let maximumEncodedBytes = 100_000

    /// How many columns of the copied text the status line shows.
    public static let previewColumns = 40

    /// The length of `byteCount` bytes once base64-encoded (padding included).
    public static func encodedLength(ofBytes byteCount: Int) -> Int { (byteCount + 2) / 3 * 4 }

    /// The copy, as an effect and the status line; `label` names what was copied when the text
    /// itself is not the best preview ("record #12 as JSON"), else a preview of the text shows.
    public static func copy(_ text: String, label: String? = nil) -> Outcome {
        let bytes = text.utf8.count
        guard encodedLength(ofBytes: bytes) <= maximumEncodedBytes else {
            let kilobytes = (bytes + 1023) / 1024
            return .request(.status(StatusMessage("Too long to copy (\(Count.grouped(kilobytes)) KB).", kind: .error)))
        }
        let what = label ?? preview(of: text)
        return Outcome(effects: [.copyToClipboard(text)], requests: [.status(StatusMessage("Copied \(what)", kind: .success))])
    }

    /// The start of `text` on one line, made printable, at most `previewColumns` wide.
    public static func preview(of text: String) -> String {
        let line = Sanitizer(unicode: true).line(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard TextWidth.of(line) > previewColumns else { return line }
        return TextWidth.prefix(line, width: previewColumns - 1) + "\u{2026}"
    }
}
