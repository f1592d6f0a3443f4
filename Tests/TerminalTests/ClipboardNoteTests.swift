import Dispatch
import Foundation
import Glibc
import TestSupport
import Testing

@testable import TerminalScreen

/// Copying inside tmux: tmux 3.3 keeps an app's OSC 52 only with
/// `set -g set-clipboard on`; its default, `external`, drops it.
@Suite struct ClipboardNoteTests {
    @Test func noNoteOutsideTmux() {
        #expect(Terminal.tmuxClipboardNote(environment: [:]) == nil)
        #expect(Terminal.tmuxClipboardNote(environment: ["TMUX": ""]) == nil)
    }

    @Test func aNoteUnlessSetClipboardIsOn() {
        #expect(Terminal.clipboardNote(setClipboard: "on") == nil)
        #expect(Terminal.clipboardNote(setClipboard: "external") == "(tmux drops it unless set -g set-clipboard on)")
        #expect(Terminal.clipboardNote(setClipboard: "off") != nil)
        #expect(Terminal.clipboardNote(setClipboard: nil) != nil, "tmux could not be asked: say it")
    }

    /// The real tmux: a private server with its default, then with `set-clipboard on`.
    @Test func realTmuxIsAsked() throws {
        let socket = "tabshell-clip-\(UUID().uuidString.prefix(8))"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("socket").path
        // posix_spawn and waitpid: Foundation's Process can miss a quick child's exit on Linux.
        func tmux(_ arguments: [String], output: String = "/dev/null") {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in [0, 1, 2] {
                let file = descriptor == 1 ? output : "/dev/null"
                posix_spawn_file_actions_addopen(&actions, descriptor, file, descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
            closeEveryOtherDescriptor(&actions)
            var argv = (["tmux", "-S", path, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var child: pid_t = 0
            guard posix_spawnp(&child, "tmux", &actions, nil, &argv, environ) == 0 else { return }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
        }
        tmux(["new-session", "-d", "-s", "t", "sleep 30"])
        defer { tmux(["kill-server"]) }
        // $TMUX is "socket,pid,session": tmux reads the socket path from it.
        let environment = ["TMUX": "\(path),1,0", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        #expect(Terminal.tmuxClipboardNote(environment: environment) != nil, "tmux's default is external")
        tmux(["set", "-g", "set-clipboard", "on"])
        #expect(Terminal.tmuxClipboardNote(environment: environment) == nil)

        // A tmux server that does not answer (stopped): `tmux show` is given up after its limit
        // and killed, and the note is said (tmux could not be asked), where the session would
        // otherwise wait for it forever. The call runs on a thread so a regression fails here
        // after a generous bound instead of hanging the suite.
        let pidFile = directory.appendingPathComponent("pid").path
        tmux(["display-message", "-p", "#{pid}"], output: pidFile)
        let text = (try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""
        let server = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), "tmux's pid: \(text)")
        kill(server, SIGSTOP)
        defer { kill(server, SIGCONT) }
        let answered = DispatchSemaphore(value: 0)
        let note = NoteBox()
        Thread {
            note.value = Terminal.tmuxClipboardNote(environment: environment)
            answered.signal()
        }.start()
        #expect(answered.wait(timeout: .now() + 30) == .success, "tmux show was waited for past its limit")
        #expect(note.value != nil, "a tmux that did not answer is said as one that drops the copy")
    }

    final class NoteBox: @unchecked Sendable {
        var value: String?
    }
}
