import ChildProcess
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
    ///
    /// Inside tmux it is sent as it is, not wrapped in tmux's DCS passthrough: tmux 3.3 takes a
    /// plain OSC 52 with `set-clipboard on` (keeping a buffer and passing it on to the terminal
    /// outside), while passthrough needs `allow-passthrough on`, off by default too, and lets
    /// any program in the pane write anything to the outer terminal. With tmux's default
    /// (`set-clipboard external`) neither arrives, so the status line says what to set
    /// (`tmuxClipboardNote`).
    public static func clipboardSequence(_ text: String) -> String {
        "\u{1b}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{1b}\\"
    }

    /// What to add to "Copied …" inside tmux when tmux would drop the copy: nil outside tmux
    /// ($TMUX unset) or when `tmux show -gv set-clipboard` says `on`.
    public static func tmuxClipboardNote(environment: [String: String]) -> String? {
        guard let socket = environment["TMUX"], !socket.isEmpty else { return nil }
        return clipboardNote(setClipboard: tmuxOption("set-clipboard", environment: environment))
    }

    /// The note for tmux's `set-clipboard` value (nil when it could not be read).
    static func clipboardNote(setClipboard value: String?) -> String? {
        value == "on" ? nil : "(tmux drops it unless set -g set-clipboard on)"
    }

    /// How long `tmux show` may take: a tmux server that does not answer costs the session this
    /// once, after its first frame, and is then taken as one that drops the copy (the note is said).
    static let tmuxAnswerLimit: Int32 = 500

    /// `tmux show -gv NAME`, run with `environment` (whose $TMUX names the server); nil when
    /// tmux is not there, fails, or has not answered within ``tmuxAnswerLimit`` ms (it is then
    /// killed). Its output is short and it does not read the terminal.
    private static func tmuxOption(_ name: String, environment: [String: String]) -> String? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let started = ChildProcess.spawn(
            ["tmux", "show", "-gv", name], environment: environment, standardOutput: .descriptor(pipeEnds[1]))
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard case let .success(child) = started else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        let deadline = ContinuousClock.now + .milliseconds(Int(tmuxAnswerLimit))
        while output.count < 4096 {
            let left = deadline - ContinuousClock.now
            var waiting = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&waiting, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                // Not answered in time: tmux is not waited for, and counts as not asked.
                kill(child.pid, SIGKILL)
                _ = child.wait()
                return nil
            }
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        guard child.wait() == .exited(0) else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
