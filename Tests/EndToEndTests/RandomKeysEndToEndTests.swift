import Domain
import Foundation
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// Random keys into the real binary for a while: printable text, arrows, Tab, Esc, Enter,
/// F-keys, Ctrl keys (not the ones that quit or suspend), bracketed-paste bursts and mouse
/// clicks. It must never crash; at the end it quits with `q`, exit 0, terminal restored.
/// `TABSHELL_STRESS_KEYS_SECONDS` sets the duration (CI 30, `make stress` 240);
/// `TABSHELL_STRESS_SEED` replays a run.
@Suite(.serialized, .tags(.e2e, .stress))
struct RandomKeysEndToEndTests {
    static let seconds = Stress.count("TABSHELL_STRESS_KEYS_SECONDS", ci: 30)

    static let named =
        [
            "Up", "Down", "Left", "Right", "Tab", "BTab", "Escape", "Enter", "BSpace", "DC", "Home", "End",
            "PPage", "NPage", "Space", "IC",
        ] + (1...12).map { "F\($0)" }
    /// Ctrl-C and Ctrl-\ quit, Ctrl-Z suspends: left out. (Ctrl-D is Done: in.)
    static let controls = "abdefghijklmnoprstuvwxy".map { "C-\($0)" }
    static let printable = Array("abcdefghijklmnoprstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ0123456789/?+-_.,:;!@#$%^&*()[]{}<>'\"~ ")
    static let pastes = [
        "4006381333931", "96385074", "036000291452", "/dev/zero", "/etc/passwd", "photo.png", "../../etc/shadow",
        "line one\nline two", "寿司 🍣 café", String(repeating: "x", count: 300), "\u{1B}[31mred\u{07}",
    ]

    @Test func randomKeysNeverCrash() throws {
        let seed = Stress.seed()
        var random = TestSupport.SplitMix64(seed: seed)
        print("random keys: seed \(seed) (replay with TABSHELL_STRESS_SEED=\(seed))")
        let s = try TabShellEndToEndTests.launch("--log-level debug")
        _ = try s.writePNG()
        try s.waitFor("first frame") { $0.contains("[ Inbox") && $0.contains("Settings") }
        let pid = try TabShellEndToEndTests.appPID(s)
        var sent = 0, pastes = 0, clicks = 0, batches = 0
        let deadline = Date().addingTimeInterval(Double(Self.seconds))
        while Date() < deadline {
            batches += 1
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                try s.paste(Self.pastes.randomElement(using: &random) ?? "")
                pastes += 1
                sent += 1
            case 1:
                try s.click(row: Int.random(in: 0..<24, using: &random), column: Int.random(in: 0..<80, using: &random))
                clicks += 1
                sent += 1
            default:
                var keys: [String] = []
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<5: keys.append(String(Self.printable.randomElement(using: &random) ?? "a"))
                    case 5..<8: keys.append(Self.named.randomElement(using: &random) ?? "Up")
                    default: keys.append(Self.controls.randomElement(using: &random) ?? "C-a")
                    }
                }
                // One character per argument; tmux treats a lone ";" as its command separator.
                try s.tmux(["send-keys", "-t", s.name] + keys.map { $0 == ";" ? "\\;" : $0 })
                sent += keys.count
            }
            if batches % 40 == 0 {
                guard Stress.isAlive(pid) else { break }
            }
            usleep(5_000)  // a fast typist, not a flood the app must queue for minutes
        }
        // Let the app work through what is still queued: the screen stays the same for a second.
        let drainStart = Date()
        var stable = 0
        var previous = ""
        while stable < 10 && Date().timeIntervalSince(drainStart) < 120 {
            usleep(100_000)
            let now = try s.screen()
            stable = now == previous ? stable + 1 : 0
            previous = now
        }
        let drain = Date().timeIntervalSince(drainStart)
        let alive = Stress.isAlive(pid)
        let last = try s.screen()
        #expect(alive, "tabshell died during random keys (seed \(seed)); screen:\n\(last)")
        let cpu = Double(Stress.processSample(pid)?.cpuTicks ?? 0) / Stress.ticksPerSecond
        if alive { try Self.quit(s) }
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.exitCode(s) == 0, "q exits 0 (seed \(seed))")
        let records = (try? TabShellEndToEndTests.database(in: s).historyCount()) ?? -1
        print(
            String(
                format: "random keys: seed %llu, %ds, %d keys in %d batches (%d pastes, %d clicks), app CPU %.1fs, backlog drained in %.1fs, %d records saved, exit 0",
                seed, Self.seconds, sent, batches, pastes, clicks, cpu, drain, records))
    }

    /// Backs out of whatever is open (sheets, alerts, capture, text fields) and presses q.
    static func quit(_ s: TmuxSession) throws {
        for _ in 0..<30 {
            let screen = try s.screen()
            if screen.contains("[app exit") { return }
            if screen.contains("Discard this capture?") || screen.contains("Resume the unfinished capture?") {
                try s.press("y")
            } else if ["Inbox", "History", "Settings"].contains(where: { screen.contains("[ \($0)") || screen.contains("[\($0)]") }) {
                // A tab is selected: the full tab bar ("[ Inbox (2) ]") or the minimized one ("[Inbox]").
                try s.press("Escape")
                usleep(100_000)
                try s.press("q")
            } else {
                try s.press("Escape")
            }
            _ = try Stress.poll(timeout: 1.5) { try s.screen().contains("[app exit") }
        }
        let log = (try? String(contentsOf: s.workDirectory.appendingPathComponent("data/tabshell/tabshell.log"), encoding: .utf8)) ?? ""
        print("random keys: could not quit; pane_in_mode=\((try? s.pane("pane_in_mode")) ?? "?"), log tail:\n" + log.split(separator: "\n").suffix(15).joined(separator: "\n"))
    }
}
