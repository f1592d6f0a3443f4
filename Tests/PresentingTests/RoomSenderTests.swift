import Foundation
import Testing

@testable import Presenting

#if canImport(Glibc)
import Glibc
#endif

/// The room's one sender (real sockets, the real room): watchers' frames are coalesced (a
/// watcher that is behind owes only the newest), a stuck watcher holds up no one, and
/// `publish` writes to no watcher's socket and waits for nothing the sender holds.
@Suite struct RoomSenderTests {
    private func folder() throws -> PresentDirectory {
        let directory = PresentDirectory(path: NSTemporaryDirectory() + "present-\(UUID().uuidString.prefix(8))")
        try directory.prepare()
        return directory
    }

    /// A generous bound on waiting for an event; never a claim about speed.
    private static let patience: TimeInterval = 60

    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(Self.patience)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(2000)
        }
        return true
    }

    /// Every state the watcher reads until one equals `payload`, or nil when the connection
    /// ends or nothing more comes within the bound.
    private static func states(until payload: Data, on connection: WatchConnection) -> [Data]? {
        var seen: [Data] = []
        let deadline = Date().addingTimeInterval(Self.patience)
        while Date() < deadline {
            var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) >= 0 else { return nil }
            guard poller.revents != 0 else { continue }
            switch connection.read() {
            case let .states(states):
                seen += states
                if states.contains(payload) { return seen }
            case .ended, .full: return nil
            }
        }
        return nil
    }

    /// Half the bound: more than a socket's buffer takes, so a watcher that does not read is
    /// behind from its first frame.
    private static func frame(_ index: Int) -> Data {
        Data(repeating: 0x41, count: PresentFrame.maximumBytes / 2) + Data("frame \(index)".utf8)
    }

    @Test func aWatcherThatReadsNothingOwesOnlyTheNewestAndThenGetsIt() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        defer { room.end() }
        let stopped = try WatchConnection(code: room.code, directory: directory)
        #expect(waitUntil { room.watcherCount == 1 })
        for index in 0..<1000 {
            room.publish(Self.frame(index))
            let held = room.heldFrames
            #expect(held.allSatisfy { $0.sending <= 1 && $0.owed <= 1 }, "after frame \(index): \(held)")
        }
        // Its socket is full: the sender is part-way through one frame and owes the newest.
        #expect(waitUntil { room.heldFrames.first.map { $0.sending == 1 } ?? false })
        #expect(room.heldFrames.allSatisfy { $0.sending <= 1 && $0.owed <= 1 })
        // Past the fan-out delay, so the newest is let out while the socket is still full: what
        // sends it then is the socket draining, not a later publish (none comes).
        usleep(UInt32(PresentationRoom.defaultFanOutDelay.components.attoseconds / 1_000_000_000_000) * 5)

        let newest = Self.frame(999)
        let seen = try #require(Self.states(until: newest, on: stopped))
        #expect(seen.last == newest)
        // What the socket's buffer held when it filled, the frame part-way out, then the newest:
        // a few, not the thousand published.
        #expect(seen.count < 100, "\(seen.count) frames reached a watcher that was 1,000 behind")
        #expect(waitUntil { room.heldFrames.allSatisfy { $0.sending == 0 && $0.owed == 0 } })
    }

    @Test func aStuckWatcherDoesNotDelayTheOthers() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        defer { room.end() }
        let stuck = try WatchConnection(code: room.code, directory: directory)
        let others = try (0..<8).map { _ in try WatchConnection(code: room.code, directory: directory) }
        #expect(waitUntil { room.watcherCount == 9 })
        // The stuck watcher's socket fills; the others read as the frames come.
        let readers = others.map { connection in
            let done = DispatchSemaphore(value: 0)
            let got = Box()
            let thread = Thread {
                got.value = Self.states(until: Self.frame(299), on: connection)?.last
                done.signal()
            }
            thread.start()
            return (done, got)
        }
        for index in 0..<300 { room.publish(Self.frame(index)) }
        #expect(waitUntil { room.heldFrames.first.map { $0.sending == 1 } ?? false }, "the stuck watcher's socket filled")
        for (done, got) in readers {
            #expect(done.wait(timeout: .now() + Self.patience) == .success)
            #expect(got.value == Self.frame(299))
        }
        withExtendedLifetime(stuck) {}
    }

    @Test func publishingWritesToNoWatchersSocketAndWaitsForNothingTheSenderHolds() throws {
        let directory = try folder()
        let room = try PresentationRoom(directory: directory)
        defer { room.end() }
        let watcher = try WatchConnection(code: room.code, directory: directory)
        #expect(waitUntil { room.watcherCount == 1 })
        // Everything the room writes to would answer EAGAIN rather than wait.
        for fd in room.writtenDescriptors {
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0, "descriptor \(fd) blocks")
        }
        // With the sender held mid-pass, a thousand publishes still return: publish does not
        // write to a socket, nor wait for the sender.
        room.senderGate.lock()
        let published = DispatchSemaphore(value: 0)
        let thread = Thread {
            for index in 0..<1000 { room.publish(Data("state \(index)".utf8)) }
            published.signal()
        }
        thread.start()
        let returned = published.wait(timeout: .now() + Self.patience) == .success
        room.senderGate.unlock()
        #expect(returned)
        let seen = Self.states(until: Data("state 999".utf8), on: watcher)
        #expect(seen?.last == Data("state 999".utf8))
    }
}

/// A value handed back from a reader thread.
private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    var value: Data? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
