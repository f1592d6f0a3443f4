import Foundation
import Testing

@testable import Presenting

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PresentationRoomTests {
    private func folder() throws -> PresentDirectory {
        let path = NSTemporaryDirectory() + "present-\(UUID().uuidString.prefix(8))"
        let directory = PresentDirectory(path: path)
        try directory.prepare()
        return directory
    }

    /// Reads until a state with `payload` comes (or the connection ends).
    private func waitFor(_ payload: Data, on connection: WatchConnection) -> Bool {
        while true {
            switch connection.read() {
            case let .states(states): if states.contains(payload) { return true }
            case .ended, .full: return false
            }
        }
    }

    private func waitUntil(_ condition: () -> Bool) {
        while !condition() { usleep(2000) }
    }

    @Test func aWatcherJoiningMidwaySeesTheCurrentStateAtOnceThenEachNewOne() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        defer { room.end() }
        room.publish(Data("one".utf8))
        let watcher = try WatchConnection(code: room.code, directory: directory)
        waitUntil { room.watcherCount == 1 }
        room.publish(Data("two".utf8))
        #expect(waitFor(Data("two".utf8), on: watcher))
        room.publish(Data("three".utf8))
        #expect(waitFor(Data("three".utf8), on: watcher))
    }

    @Test func aWrongCodeConnectsToNothing() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        defer { room.end() }
        let other = try #require(WatchCode(room.code.text == "2222-2222-2222" ? "3333-3333-3333" : "2222-2222-2222"))
        #expect(throws: PresentError.self) { try WatchConnection(code: other, directory: directory) }
    }

    @Test func theEndReachesWatchersAndTheCodeGoes() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        let watcher = try WatchConnection(code: room.code, directory: directory)
        waitUntil { room.watcherCount == 1 }
        room.end()
        var news = watcher.read()
        while case .states = news { news = watcher.read() }
        #expect(news == .ended)
        #expect(!FileManager.default.fileExists(atPath: directory.socketPath(for: room.code)))
    }

    @Test func aFullRoomSaysSoAndCountsWatchersComingAndGoing() throws {
        let directory = try folder()
        let counts = CountLog()
        let room = try PresentationRoom(directory: directory, maximumWatchers: 2) { counts.add($0) }
        defer { room.end() }
        let first = try WatchConnection(code: room.code, directory: directory)
        let second = try WatchConnection(code: room.code, directory: directory)
        waitUntil { room.watcherCount == 2 }
        let third = try WatchConnection(code: room.code, directory: directory)
        #expect(third.read() == .full)
        second.leave()
        // The room notices without any state being sent.
        waitUntil { room.watcherCount == 1 }
        #expect(counts.values.last == 1)
        withExtendedLifetime(first) {}
    }

    @Test func aWatcherThatNeverReadsNeverHoldsThePresenterUp() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        defer { room.end() }
        let stopped = try WatchConnection(code: room.code, directory: directory)
        let reading = try WatchConnection(code: room.code, directory: directory)
        waitUntil { room.watcherCount == 2 }
        // Far more than any socket buffer holds: were publish to wait for the stopped watcher,
        // this loop would never end (the suite's time limit would fail it).
        let big = Data(repeating: 0x41, count: 256 * 1024)
        for index in 0..<400 { room.publish(big + Data("\(index)".utf8)) }
        let last = Data("last".utf8)
        room.publish(last)
        #expect(waitFor(last, on: reading))
        withExtendedLifetime(stopped) {}
    }
}

/// Counts a room reported, from its threads.
final class CountLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func add(_ value: Int) { lock.withLock { list.append(value) } }
    var values: [Int] { lock.withLock { list } }
}
