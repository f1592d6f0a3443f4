import CaptureMode
import Foundation
import Render
import TabShell
import TestSupport
import Testing

/// Random presenters: after every key of 80 seeded sessions, whatever the
/// presenter reached — a sheet, capture and its questions, an alert, a record — the watcher at
/// the presenter's size draws the presenter's screen (a failing seed is printed to replay).
@Suite struct PresentedScreenFuzzTests {
    static let keys: [Key] =
        [.up, .down, .pageDown, .end, .home, .enter, .escape, .tab, .backspace, .left, .right]
        + "123+/?dDbqyn4x9".map { .character($0) } + [.paste("4006381333931"), .paste("96385074")]

    @Test func theWatcherDrawsThePresentersScreenAfterEveryKey() throws {
        for seed in UInt64(1)...80 {
            var random = SplitMix64(seed: seed)
            let size = PresentedScreenTests.sizes[Int(random.next() % 3)]
            var stage = PresenterStage(size: size)
            var pressed: [Key] = []
            for _ in 0..<20 {
                let key = Self.keys[Int(random.next() % UInt64(Self.keys.count))]
                pressed.append(key)
                stage.press([key])
                if stage.state.isQuitting { break }
                let watched = try stage.watcherText(size: size)
                let own = stage.ownText()
                guard watched == own else {
                    Issue.record("seed \(seed) at \(size.columns)x\(size.rows) after \(pressed):\n\(own)\n-----\n\(watched)")
                    return
                }
            }
        }
    }
}
