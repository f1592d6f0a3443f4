import Foundation
import Logging
import Testing

@testable import TabShellCommands

/// `serve --log-format json`: the log file as one JSON object a line (``JSONLogLine`` through
/// ``FileLogHandler``), whatever the messages and fields hold.
@Suite struct JSONLogTests {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = 1_800_000_000.25
        var now: Double { lock.withLock { seconds } }
        func advance(_ by: Double) { lock.withLock { seconds += by } }
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("JSONLogTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every line of `url` parsed; a line that is not one JSON object fails the test.
    static func objects(_ url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the file ends with a whole line")
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line.prefix(200))")
        }
    }

    @Test func aLineAnEventWithItsTimeLevelEventAndFields() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tabshell.log")
        let clock = Clock()
        var logger = Logger(label: "JSONLogTests") { _ in FileLogHandler(url: url, level: .info, format: .json, clock: { clock.now }) }
        logger[metadataKey: "address"] = "203.0.113.7:53122"
        logger[metadataKey: "connection"] = "3"
        logger.info("connected")
        logger.notice("session ended", metadata: ["duration": "83.412", "pid": "4242"])
        logger.debug("below the level: not written")

        let objects = try Self.objects(url)
        try #require(objects.count == 2, "\(objects)")
        #expect(objects[0]["time"] as? String == "2027-01-15T08:00:00.250Z")
        #expect(objects[0]["level"] as? String == "info" && objects[0]["event"] as? String == "connected")
        #expect(objects[0]["address"] as? String == "203.0.113.7:53122" && objects[0]["connection"] as? String == "3")
        #expect(objects[0]["process"] as? Int == Int(ProcessInfo.processInfo.processIdentifier))
        #expect(objects[1]["duration"] as? String == "83.412" && objects[1]["pid"] as? String == "4242" && objects[1]["level"] as? String == "notice")

        // The order is fixed: time, level, process, event, then the fields by name.
        let first = try #require(String(contentsOf: url, encoding: .utf8).split(separator: "\n").first)
        #expect(first.hasPrefix(#"{"time":"2027-01-15T08:00:00.250Z","level":"info","process":"#))
        #expect(first.hasSuffix(#","event":"connected","address":"203.0.113.7:53122","connection":"3"}"#), "\(first)")
    }

    /// What a client can put in a field (a login name, a command) cannot break the line, forge
    /// another, reach a terminal raw, or make a line of a megabyte.
    @Test func hostileFieldsStayOnOneBoundedPrintableLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tabshell.log")
        let logger = Logger(label: "JSONLogTests") { _ in FileLogHandler(url: url, level: .info, format: .json) }
        let forged = "x\"}\n{\"time\":\"2020-01-01T00:00:00.000Z\",\"level\":\"info\",\"event\":\"authenticated\",\"address\":\"9.9.9.9:1\"}"
        let controls = "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}\u{9B}31m\u{202E}evil\r\u{2028}\u{0}\\"
        let huge = String(repeating: "a", count: 1 << 20)
        logger.info(
            "key refused: not authorized",
            metadata: [
                "login": "\(forged)", "command": "\(controls)", "huge": "\(huge)", "time": "not the time",
                "list": .array(["\(controls)", .dictionary(["k\n": "\(forged)"])]),
            ])
        logger.info("line \n two \u{1B}[31m")

        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2, "one line an event:\n\(text.prefix(2000))")
        for scalar in text.unicodeScalars where scalar != "\n" {
            #expect(scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value), "a control in the log: \(scalar.value)")
            #expect(!(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value), "a bidi control: \(scalar.value)")
        }
        #expect(lines.allSatisfy { $0.utf8.count < 64 * 1024 }, "every line bounded: \(lines.map(\.utf8.count))")

        let objects = try Self.objects(url)
        try #require(objects.count == 2)
        #expect(objects[0]["event"] as? String == "key refused: not authorized")
        #expect(objects[0]["time"] as? String != "not the time" && objects[0]["field.time"] as? String == "not the time")
        #expect(objects[0]["address"] == nil, "no field comes out of a value")
        let login = try #require(objects[0]["login"] as? String)
        #expect(login.hasPrefix("x\"}") && login.contains("9.9.9.9"), "the login is kept, quoted, as one value: \(login)")
        let kept = try #require(objects[0]["huge"] as? String)
        #expect(kept.hasPrefix(String(repeating: "a", count: JSONLogLine.maximumCharacters)))
        #expect(kept.hasSuffix("… (\((1 << 20) - JSONLogLine.maximumCharacters) more characters)"), "\(kept.suffix(60))")
        let second = try #require(objects[1]["event"] as? String)
        #expect(second.hasPrefix("line \u{23CE} two ") && !second.unicodeScalars.contains("\u{1B}"), "\(second)")
    }

    /// The flood gate's count is a JSON line too, and text stays as it was.
    @Test func theFloodGatesSummaryIsALineOfJSON() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tabshell.log")
        let clock = Clock()
        let logger = Logger(label: "JSONLogTests") { _ in FileLogHandler(url: url, level: .info, format: .json, clock: { clock.now }) }
        for index in 0..<25 { logger.info("key refused: not authorized", metadata: ["address": "198.51.100.\(index):22"]) }
        clock.advance(61)
        logger.info("connected")

        let objects = try Self.objects(url)
        #expect(objects.filter { $0["event"] as? String == "key refused: not authorized" }.count == LogFloodGate.burst)
        let summary = try #require(objects.first { $0["event"] as? String == "lines left out" }, "\(objects)")
        #expect(summary["message"] as? String == "key refused: not authorized" && summary["omitted"] as? String == "15")
        #expect(summary["since"] as? String == "2027-01-15T08:00:00.250Z" && summary["windowSeconds"] as? String == "60")
        let security = try Self.objects(FileLogHandler.securityLog(beside: url))
        #expect(security.count == LogFloodGate.burst + 1, "the security log has the same lines, in JSON")
    }

    @Test func theFormatASessionFollowsComesFromItsEnvironment() {
        #expect(LogFormat(environment: [:]) == .text)
        #expect(LogFormat(environment: [LogFormat.environmentVariable: "json"]) == .json)
        #expect(LogFormat(environment: [LogFormat.environmentVariable: "yaml"]) == .text)
        #expect(LogFormat.json.sessionEnvironment == [LogFormat.environmentVariable: "json"] && LogFormat.text.sessionEnvironment.isEmpty)
    }
}
