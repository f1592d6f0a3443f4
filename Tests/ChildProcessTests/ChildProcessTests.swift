import ChildProcess
import Foundation
import Testing

/// The one way the app starts a child: real processes, their exits, their streams, their group
/// and the signals they start with.
@Suite struct ChildProcessTests {
    static func start(_ script: String, ownProcessGroup: Bool = false, output: ChildProcess.Stream = .null) throws -> ChildProcess {
        try ChildProcess.spawn(["/bin/sh", "-c", script], environment: ["PATH": "/usr/bin:/bin"], standardOutput: output, ownProcessGroup: ownProcessGroup)
            .get()
    }

    @Test func anExitIsItsStatusAndASignalIsItsNumber() throws {
        #expect(try Self.start("exit 3").wait() == .exited(3))
        #expect(try Self.start("exit 0").wait() == .exited(0))
        #expect(try Self.start("kill -TERM $$").wait() == .signalled(SIGTERM))
    }

    @Test func aProgramThatIsNotThereIsOneReason() {
        let started = ChildProcess.spawn(["tabshell-no-such-program"], environment: ["PATH": "/usr/bin:/bin"])
        guard case let .failure(failure) = started else {
            Issue.record("a missing program started")
            return
        }
        #expect(failure.reason == "no such file or directory")
    }

    @Test func itsOutputGoesWhereItIsSentAndItsEnvironmentIsTheOneGiven() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let child = try ChildProcess.spawn(
            ["/bin/sh", "-c", "printf '%s' \"$GREETING\""], environment: ["GREETING": "hello"], standardOutput: .descriptor(ends[1])
        ).get()
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &buffer, buffer.count)
        close(ends[0])
        #expect(child.wait() == .exited(0))
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "hello")
    }

    /// A descriptor of ours without close-on-exec (a socket another library opened) is not the
    /// child's: a child that outlives us would hold it open.
    @Test func theChildGetsNoDescriptorOfOursButItsStreams() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // neither end close-on-exec
        let kept = open("/dev/null", O_RDONLY)
        defer { close(kept) }
        let child = try ChildProcess.spawn(
            ["/bin/sh", "-c", "ls /proc/self/fd"], environment: ["PATH": "/usr/bin:/bin"], standardOutput: .descriptor(ends[1])
        ).get()
        close(ends[1])
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 256)
        while case let count = read(ends[0], &buffer, buffer.count), count > 0 { output.append(contentsOf: buffer.prefix(count)) }
        close(ends[0])
        #expect(child.wait() == .exited(0))
        // 0, 1 and 2, and the one ls opened to read the folder.
        let listed = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(listed == ["0", "1", "2", "3"], "\(listed) with \(kept) and \(ends) open here")
    }

    /// The app ignores SIGPIPE; its children must not inherit that (a shell pipeline would
    /// never end on a closed reader).
    @Test func theSignalsTheAppIgnoresAreDefaultsInTheChild() throws {
        // As the app does (and left so: other suites in this process may rely on it, and a
        // write to a closed pipe then fails rather than ends the process).
        signal(SIGPIPE, SIG_IGN)
        #expect(try Self.start("kill -PIPE $$").wait() == .signalled(SIGPIPE))
    }

    @Test func aProcessGroupOfItsOwnWhenAskedAndOursOtherwise() throws {
        let own = try Self.start("sleep 5", ownProcessGroup: true)
        #expect(getpgid(own.pid) == own.pid)
        kill(-own.pid, SIGKILL)
        #expect(own.wait() == .signalled(SIGKILL))

        let shared = try Self.start("sleep 5")
        #expect(getpgid(shared.pid) == getpgrp())
        kill(shared.pid, SIGKILL)
        #expect(shared.wait() == .signalled(SIGKILL))
    }

    @Test func exitedIsNilWhileItRuns() throws {
        let child = try Self.start("sleep 5")
        #expect(child.exited() == nil)
        kill(child.pid, SIGKILL)
        #expect(child.wait() == .signalled(SIGKILL))
    }
}
