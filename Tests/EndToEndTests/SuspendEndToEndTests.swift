import Domain
import Foundation
import TestSupport
import Testing

/// Ctrl-Z then `fg` under a real job-control shell, and SIGSTOP/SIGCONT from outside, 20 times
/// each: every time the whole frame comes back exactly as it was, and keys still work.
@Suite(.serialized, .tags(.e2e, .stress))
struct SuspendEndToEndTests {
    static let rounds = Stress.count("TABSHELL_STRESS_SUSPENDS", ci: 20)
    /// Tab keys and the heading each shows, cycled so every round proves keys still work.
    static let tabs: [(key: String, heading: String)] = [("3", "[ History"), ("4", "[ Settings"), ("1", "[ Inbox")]

    /// The whole frame with its tab's list read: the frame before the first read says
    /// "Loading…", and a repaint after that read would never equal it.
    static func fullFrame(_ heading: String) -> (String) -> Bool {
        { $0.contains(heading) && $0.contains("Settings") && $0.contains("History") && $0.contains("Create") && !$0.contains("Loading") }
    }

    @Test func ctrlZThenFgUnderBash() throws {
        let s = try TmuxSession("PS1='PROMPT$ ' bash --norc --noprofile -i")
        try s.waitFor(text: "PROMPT$")
        let database = s.workDirectory.appendingPathComponent("suspend.sqlite").path
        // Started with SIGTSTP blocked, as some supervisors and test runners leave it: Ctrl-Z
        // must still stop the app (it once turned into a busy suspend/redraw loop).
        let blockTSTP = "python3 -c 'import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTSTP}); os.execv(sys.argv[1], sys.argv[1:])'"
        try s.type("\(blockTSTP) \"$TABSHELL\" --db \(TmuxSession.quote(database))")
        try s.press("Enter")
        var frame = try s.waitFor("first frame", Self.fullFrame("[ Inbox"))
        var backTimes: [Double] = []
        for round in 0..<Self.rounds {
            try s.press("C-z")
            try s.waitFor("bash prompt after Ctrl-Z (round \(round))") { screen in
                screen.contains("Stopped") && screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.hasPrefix("PROMPT$") == true
            }
            #expect(try s.pane("alternate_on") == "0", "Ctrl-Z leaves the alternate screen")
            #expect(try s.pane("cursor_flag") == "1", "Ctrl-Z shows the cursor")
            let start = Date()
            try s.type("fg")
            try s.press("Enter")
            let expected = frame
            try s.waitFor("the same whole frame after fg (round \(round))") { $0 == expected }
            backTimes.append(Date().timeIntervalSince(start))
            let tab = Self.tabs[round % Self.tabs.count]
            try s.press(tab.key)
            frame = try s.waitFor("\(tab.heading) after fg (round \(round))", Self.fullFrame(tab.heading))
        }
        try s.press("q")
        try s.waitFor("prompt after quit") { !$0.contains("+ Create") && $0.contains("PROMPT$") }
        #expect(try s.pane("alternate_on") == "0")
        #expect(try s.pane("cursor_flag") == "1")
        print(
            String(
                format: "Ctrl-Z/fg under bash: %d rounds, frame back after fg in median %.0fms, worst %.0fms",
                Self.rounds, backTimes.sorted()[backTimes.count / 2] * 1000, (backTimes.max() ?? 0) * 1000))
    }

    @Test func sigstopSigcontRepaintsOverWhateverWasDrawn() throws {
        let s = try TabShellEndToEndTests.launch()
        var frame = try s.waitFor("first frame", Self.fullFrame("[ Inbox"))
        let pid = try TabShellEndToEndTests.appPID(s)
        var backTimes: [Double] = []
        for round in 0..<Self.rounds {
            kill(pid, SIGSTOP)
            #expect(Stress.poll(timeout: 5) { Stress.processSample(pid)?.state == "T" }, "stopped (round \(round))")
            // Something else scribbles on the terminal while the app is stopped.
            let garbage = "\u{1B}[H\u{1B}[2JGARBAGE \(round)\r\nmore garbage\r\n"
            try s.scribble(garbage)
            try s.waitFor(text: "GARBAGE \(round)")
            let start = Date()
            kill(pid, SIGCONT)
            let expected = frame
            try s.waitFor("the whole frame repainted after SIGCONT (round \(round))") { $0 == expected }
            backTimes.append(Date().timeIntervalSince(start))
            let tab = Self.tabs[round % Self.tabs.count]
            try s.press(tab.key)
            frame = try s.waitFor("\(tab.heading) after SIGCONT (round \(round))", Self.fullFrame(tab.heading))
        }
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
        print(
            String(
                format: "SIGSTOP/SIGCONT: %d rounds with the screen scribbled over, repainted in median %.0fms, worst %.0fms",
                Self.rounds, backTimes.sorted()[backTimes.count / 2] * 1000, (backTimes.max() ?? 0) * 1000))
    }
}
