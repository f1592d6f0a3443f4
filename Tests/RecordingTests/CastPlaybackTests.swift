import Testing

@testable import Recording

/// The replay's timeline: idle limit, speed, pausing, skipping a pause.
@Suite struct CastPlaybackTests {
    static let events = [
        CastEvent(time: 0, kind: .output("one")), CastEvent(time: 1, kind: .output("two")),
        CastEvent(time: 61, kind: .output("three")), CastEvent(time: 61.5, kind: .resize(columns: 90, rows: 28)),
    ]

    static func texts(_ events: ArraySlice<CastEvent>) -> [String] {
        events.compactMap { if case .output(let text) = $0.kind { text } else { nil } }
    }

    @Test func pausesLongerThanTheIdleLimitAreShortened() {
        var playback = CastPlayback(events: Self.events, idleLimit: 3, startingAt: 100)
        #expect(playback.times == [0, 1, 4, 4.5])
        #expect(Self.texts(playback.due(at: 100)) == ["one"])
        #expect(playback.secondsUntilNext(at: 100) == 1)
        #expect(Self.texts(playback.due(at: 100.5)).isEmpty)
        #expect(Self.texts(playback.due(at: 104)) == ["two", "three"])
        #expect(!playback.isFinished)
        #expect(playback.due(at: 104.5).count == 1)
        #expect(playback.isFinished && playback.secondsUntilNext(at: 105) == nil)
    }

    @Test func speedScalesTheClock() {
        var playback = CastPlayback(events: Self.events, idleLimit: 3, speed: 2, startingAt: 0)
        #expect(Self.texts(playback.due(at: 0.5)) == ["one", "two"])
        #expect(playback.secondsUntilNext(at: 0.5) == 1.5)
    }

    @Test func aPauseHoldsTheTimelineUntilResumed() {
        var playback = CastPlayback(events: Self.events, idleLimit: 3, startingAt: 0)
        _ = playback.due(at: 0)
        playback.togglePause(at: 0.5)
        #expect(playback.isPaused && playback.secondsUntilNext(at: 50) == nil)
        #expect(playback.due(at: 50).isEmpty, "nothing plays while paused")
        playback.togglePause(at: 50)
        #expect(playback.position(at: 50) == 0.5)
        #expect(playback.secondsUntilNext(at: 50) == 0.5)
        #expect(Self.texts(playback.due(at: 50.5)) == ["two"])
    }

    @Test func skippingMakesTheNextEventDueNow() {
        var playback = CastPlayback(events: Self.events, idleLimit: 60, startingAt: 0)
        _ = playback.due(at: 1)
        #expect(playback.secondsUntilNext(at: 1) == 60)
        playback.skipIdle(at: 1.2)
        #expect(Self.texts(playback.due(at: 1.2)) == ["three"])
        // Paused, a skip steps one event and stays paused.
        playback.togglePause(at: 1.3)
        playback.skipIdle(at: 1.3)
        #expect(playback.due(at: 2).count == 1 && playback.isPaused && playback.isFinished)
    }
}
