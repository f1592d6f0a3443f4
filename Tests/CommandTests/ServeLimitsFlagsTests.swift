import ArgumentParser
import Foundation
import Testing

@testable import ServePolicy
@testable import TabShellCommands

/// `tabshell serve`'s flags for the connection limits: MaxStartups as sshd writes it,
/// the idle timeout's default by mode, revocation and the total of connections; which ways in
/// it needs, and the session memory limit's size (TabShellCommands' `ServeOptions`, which the
/// executable's `ServeCommand` runs the server from).
@Suite struct ServeLimitsFlagsTests {
    static func serve(_ arguments: [String]) throws -> ServeOptions {
        try ServeOptions.parse(arguments)
    }

    @Test func maxStartupsTakesSshdsTripleOrOneNumber() {
        #expect(MaxStartupsText("10:30:100").map { [$0.start, $0.rate, $0.full] } == [10, 30, 100])
        #expect(MaxStartupsText("16").map { [$0.start, $0.rate, $0.full] } == [16, 100, 16], "one number is a plain limit")
        for bad in ["", "0", "10:30", "10:30:5", "10:130:100", "a:b:c", "10::100", "-1:30:100", "10:30:100:1"] {
            #expect(MaxStartupsText(bad) == nil, "\(bad)")
        }
        #expect(throws: (any Error).self) { try Self.serve(["--demo", "--max-startups", "10:30"]) }
        #expect(throws: Never.self) { try Self.serve(["--demo", "--max-startups", "16"]) }
    }

    @Test func theIdleTimeoutIsHalfAnHourInDemoModeAndNeverInTeamMode() throws {
        #expect(try Self.serve(["--demo"]).idleTimeoutSeconds == 1800)
        #expect(try Self.serve(["--demo", "--idle-timeout", "0"]).idleTimeoutSeconds == nil)
        #expect(try Self.serve(["--demo", "--idle-timeout", "5m"]).idleTimeoutSeconds == 300)
        #expect(try Self.serve(["--authorized-keys", "k"]).idleTimeoutSeconds == nil)
        #expect(try Self.serve(["--authorized-keys", "k", "--idle-timeout", "1h"]).idleTimeoutSeconds == 3600)
    }

    @Test func serveNeedsExactlyOneWayIn() {
        #expect(throws: (any Error).self) { try Self.serve([]) }
        #expect(throws: (any Error).self) { try Self.serve(["--demo", "--authorized-keys", "k"]) }
        #expect(throws: (any Error).self) { try Self.serve(["--demo", "--listen", "nowhere"]) }
        #expect(throws: (any Error).self) { try Self.serve(["--demo", "--resume-window", "soon"]) }
        #expect(throws: Never.self) { try Self.serve(["--demo", "--listen", "127.0.0.1:0"]) }
    }

    @Test func theSessionMemoryLimitIsASize() {
        #expect(throws: (any Error).self) { try Self.serve(["--demo", "--session-memory-limit", "lots"]) }
        #expect(throws: Never.self) { try Self.serve(["--demo", "--session-memory-limit", "1G"]) }
    }

    @Test func revocationEndsSessionsUnlessTurnedOff() throws {
        #expect(try Self.serve(["--authorized-keys", "k"]).revokeEndsSessions)
        #expect(try !Self.serve(["--authorized-keys", "k", "--no-revoke-ends-sessions"]).revokeEndsSessions)
        #expect(try Self.serve(["--demo"]).maxConnections == 256)
        #expect(throws: (any Error).self) { try Self.serve(["--demo", "--max-connections", "0"]) }
    }
}
