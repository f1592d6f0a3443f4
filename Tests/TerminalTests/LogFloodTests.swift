import Foundation
import Logging
import Testing

@testable import TabShellCommands

/// A flood of refusals through the logging path: counted, not written thousands of
/// times, and the security events before it kept.
@Suite struct LogFloodTests {
    /// Seconds since 1970 that only the test moves.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = 1_800_000_000.0
        var now: Double { lock.withLock { seconds } }
        func advance(_ by: Double) { lock.withLock { seconds += by } }
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("LogFloodTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func lines(_ url: URL) -> [String] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func aMessageIsWrittenTenTimesAMinuteAndTheRestCounted() {
        var gate = LogFloodGate()
        let written = (0..<8_802).filter { gate.admit("refused: launcher", isSecurityEvent: false, at: 100 + Double($0) / 200).write }
        #expect(written.count == LogFloodGate.burst)
        // Another message has its own allowance.
        #expect(gate.admit("session ended", isSecurityEvent: false, at: 150).write)
        // The window over, the next line of any kind brings the count out first.
        let after = gate.admit("connected", isSecurityEvent: false, at: 161)
        #expect(after.write)
        #expect(after.summaries == [LogFloodGate.Summary(message: "refused: launcher", omitted: 8_792, since: 100, isSecurityEvent: false)])
        // And the message starts a new window.
        #expect(gate.admit("refused: launcher", isSecurityEvent: false, at: 162).write)
    }

    @Test func aFloodOfRefusalsKeepsTheRevocation() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tabshell.log")
        let clock = Clock()
        let logger = Logger(label: "LogFloodTests") { _ in FileLogHandler(url: url, level: .info, clock: { clock.now }) }
        var connection = logger
        connection[metadataKey: "connection"] = "7"
        connection[metadataKey: "person"] = "ana"
        connection.notice("key revoked: hanging up the connection's sessions", metadata: ["sessions": "1"])

        // 20,000 wrong codes (4 MB of lines before: the log and its one old file rotated over twice).
        let padding = String(repeating: "w", count: 150)
        for index in 0..<20_000 {
            logger.notice("refused: launcher", metadata: ["command": "watch \(index % 10_000) \(padding)", "connection": "\(index / 8)"])
            if index % 400 == 0 { clock.advance(1) }
        }
        clock.advance(61)
        logger.info("connected")

        let main = Self.lines(url)
        let security = Self.lines(FileLogHandler.securityLog(beside: url))
        #expect(main.contains { $0.contains("key revoked: hanging up") }, "the log keeps the revocation")
        #expect(security.count == 1 && security[0].contains("key revoked: hanging up") && security[0].contains("person=ana"), "\(security)")
        let refusals = main.filter { $0.contains("refused: launcher") }
        #expect(refusals.count == LogFloodGate.burst + 1, "\(refusals.count) lines")
        #expect(refusals.last?.contains(#""refused: launcher" and 19,990 more like it in the 60 s from "#) == true, "\(refusals.last ?? "")")
        #expect(main.last?.contains("connected") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".1"), "nothing rotated")
    }

    /// Security events have a file of their own: a flood of anything else never rotates it.
    @Test func securityEventsSurviveAFloodOfOtherLines() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tabshell.log")
        let clock = Clock()
        let logger = Logger(label: "LogFloodTests") { _ in FileLogHandler(url: url, level: .info, maxBytes: 4096, clock: { clock.now }) }
        logger.notice("key revoked: this connection can start no new session", metadata: ["sessions": "0"])
        logger.info("authenticated", metadata: ["fingerprint": "SHA256:abc"])
        // Many different lines (each message its own): the main log rotates, the security log does not.
        for index in 0..<2_000 {
            logger.info("recovery: draft \(index) kept")
            logger.notice("refused: per-address session limit reached", metadata: ["limit": "8"])
        }
        let security = Self.lines(FileLogHandler.securityLog(beside: url))
        #expect(security.first?.contains("key revoked: this connection") == true, "\(security.prefix(3))")
        #expect(security.contains { $0.contains("authenticated") })
        #expect(security.filter { $0.contains("limit reached") }.count == LogFloodGate.burst)
        #expect(!Self.lines(url).contains { $0.contains("key revoked") }, "the main log did rotate past it")
    }

    /// Each prefix the security log keeps still begins a message the SSH server logs.
    @Test func theSecurityPrefixesAreTheServersMessages() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/SSHServer")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let text = try files.filter { $0.pathExtension == "swift" }.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        for prefix in LogFloodGate.securityPrefixes {
            #expect(text.contains("\"\(prefix)"), "no SSHServer message begins with \(prefix)")
        }
        #expect(text.contains("limit reached\""))
        #expect(LogFloodGate.isSecurityEvent("refused: session limit reached") && !LogFloodGate.isSecurityEvent("refused: launcher"))
    }
}
