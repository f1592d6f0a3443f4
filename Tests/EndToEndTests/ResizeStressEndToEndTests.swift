import Foundation
import TestSupport
import Testing

/// Random resizes (1x1 and 2x10 included) as fast as tmux delivers them, in every screen: the
/// app never dies, and after the last one its screen equals both a fresh session started at
/// that size and driven to the same screen, and its own Ctrl-L repaint.
/// `TABSHELL_STRESS_RESIZES` sets the count per screen (CI 150, `make stress` 1,000).
@Suite(.serialized, .tags(.e2e, .stress))
struct ResizeStressEndToEndTests {
    static let resizes = Stress.count("TABSHELL_STRESS_RESIZES", ci: 150)
    static let pinned: [(Int, Int)] = [(1, 1), (2, 10), (10, 2), (1, 80), (200, 1), (20, 6), (24, 8)]

    @Test(arguments: AppScreen.allCases)
    func randomResizesThenAFreshRenderMatches(screen: AppScreen) throws {
        if let only = ProcessInfo.processInfo.environment["TABSHELL_STRESS_SCREENS"], !only.split(separator: ",").contains(Substring(screen.rawValue)) {
            return
        }
        let seed = Stress.seed()
        var random = SplitMix64(seed: seed)
        let s = try TabShellEndToEndTests.launch()
        try screen.open(in: s, photo: try s.writePNG())
        let pid = try TabShellEndToEndTests.appPID(s)
        let start = Date()
        var sizes: [String] = []
        defer {
            if let dump = ProcessInfo.processInfo.environment["TABSHELL_STRESS_DUMP_SIZES"] {
                try? sizes.joined(separator: "\n").write(toFile: dump, atomically: true, encoding: .utf8)
            }
        }
        for index in 0..<Self.resizes {
            let (columns, rows) =
                index < Self.pinned.count
                ? Self.pinned[index]
                : (Int.random(in: 1...220, using: &random), Int.random(in: 1...70, using: &random))
            try s.resize(columns: columns, rows: rows)
            sizes.append("\(columns) \(rows)")
            if index % 50 == 0 { #expect(Stress.isAlive(pid), "died after \(index) resizes") }
        }
        // Wide and tall enough that the fresh session shows the labels `AppScreen.open` waits for
        // (under ~50 columns the tab bar abbreviates them).
        let final = (columns: Int.random(in: 60...140, using: &random), rows: Int.random(in: 14...45, using: &random))
        try s.resize(columns: final.columns, rows: final.rows)
        let elapsed = Date().timeIntervalSince(start)
        #expect(Stress.isAlive(pid), "the app died during the resizes")

        let fresh = try TabShellEndToEndTests.launch(columns: final.columns, rows: final.rows)
        try screen.open(in: fresh, photo: try fresh.writePNG())
        let reference = try Self.stableScreen(fresh)
        let fitted = try? s.waitFor("the resized \(screen) to equal a fresh render at \(final.columns)x\(final.rows)", timeout: 10) {
            Self.normalized($0) == Self.normalized(reference)
        }
        let stressed = try s.screen()
        #expect(
            fitted != nil,
            "\(screen) after \(Self.resizes) resizes (seed \(seed)) differs from a fresh render at \(final.columns)x\(final.rows):\n\(stressed)\n--- fresh ---\n\(reference)")
        // Scribble over the screen behind the app's back; Ctrl-L must repaint every cell.
        try s.scribble("\u{1B}[HSCRIBBLED OVER\r\n")
        try s.waitFor(text: "SCRIBBLED OVER")
        try s.press("C-l")
        let repainted = try? s.waitFor("Ctrl-L repaint equal too", timeout: 10) { Self.normalized($0) == Self.normalized(reference) }
        #expect(repainted != nil, "\(screen): Ctrl-L repaint differs from a fresh render")
        #expect(Stress.isAlive(pid))
        let alternate = try s.pane("alternate_on")
        #expect(alternate == "1", "\(screen): the app is drawing on the main screen after the resizes")
        // The stressed session: tmux 3.3a can leave pieces of the alternate screen in its saved
        // main screen after such resize storms (replayed outside the tests: the app writes one
        // `ESC[?1049l` and nothing after it but mode resets), so its main-screen text is not
        // compared; the bytes the app writes on the way out are.
        let exitBytes = s.workDirectory.appendingPathComponent("exit-bytes.bin")
        try s.recordOutput(to: exitBytes)
        kill(pid, SIGINT)
        try s.waitFor(text: "[app exit")
        try s.stopRecording()
        let before = try String(contentsOf: s.workDirectory.appendingPathComponent("stty.before"), encoding: .utf8)
        let after = try String(contentsOf: s.workDirectory.appendingPathComponent("stty.after"), encoding: .utf8)
        #expect(before == after, "\(screen): stty settings differ after exit")
        #expect(try s.pane("alternate_on") == "0", "\(screen): still on the alternate screen")
        #expect(try s.pane("cursor_flag") == "1", "\(screen): cursor left hidden")
        #expect(try TabShellEndToEndTests.exitCode(s) == 0)
        let bytes = [UInt8](try Data(contentsOf: exitBytes))
        let leave = Array("\u{1B}[?1049l".utf8)
        let leaves = (0...max(0, bytes.count - leave.count)).filter { bytes.count >= leave.count && Array(bytes[$0..<$0 + leave.count]) == leave }
        #expect(leaves.count == 1, "\(screen): the app leaves the alternate screen exactly once (\(leaves.count))")
        if let last = leaves.last {
            let tail = String(decoding: bytes[(last + leave.count)...], as: UTF8.self)
            let printable = tail.replacingOccurrences(of: #"\u{1B}(\[[0-9;?]*[A-Za-z]|[=>])"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: "[app exit 0]", with: "").replacingOccurrences(of: "[exit 0]", with: "")
                .filter { $0.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F } }
            #expect(printable.isEmpty, "\(screen): the app wrote text after leaving the alternate screen: \(printable)")
        }
        kill(try TabShellEndToEndTests.appPID(fresh), SIGINT)
        try TabShellEndToEndTests.expectTerminalRestored(fresh)
        print(
            String(
                format: "resize stress %@: %d resizes in %.1fs (%.0f/s), seed %llu, final %dx%d: fresh render %@, Ctrl-L %@, alternate screen %@",
                screen.rawValue, Self.resizes, elapsed, Double(Self.resizes) / elapsed, seed, final.columns, final.rows,
                fitted != nil ? "equal" : "DIFFERENT", repainted != nil ? "equal" : "DIFFERENT", alternate))
    }

    /// The screen once two reads 100 ms apart agree (the frame is fully painted).
    static func stableScreen(_ session: TmuxSession) throws -> String {
        var last = try session.screen()
        for _ in 0..<100 {
            usleep(100_000)
            let now = try session.screen()
            if now == last { return now }
            last = now
        }
        return last
    }

    /// Each line without trailing blanks, and the work directory (which differs per session) masked.
    static func normalized(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var text = String(line)
                while text.hasSuffix(" ") { text.removeLast() }
                // The session's folder, also where a narrow screen cut its path ("…abshell-e2e-…").
                return text.replacingOccurrences(of: #"e2e-[0-9A-F]{8}"#, with: "WORKDIR", options: .regularExpression)
            }
            .joined(separator: "\n")
    }
}
