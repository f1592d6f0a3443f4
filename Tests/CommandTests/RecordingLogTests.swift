import Foundation
import Logging
import Testing

@testable import ServePolicy
@testable import TabShellCommands

/// `recording written`: the log says when a session's cast is complete, with its name and size
/// (docs/operating.md, "Logs").
@Suite struct RecordingLogTests {
    @Test func aFinishedRecordingIsLoggedWithItsSize() throws {
        let workspace = try Workspace()
        let folder = workspace.url.appendingPathComponent("casts").path
        let log = workspace.url.appendingPathComponent("tabshell.log")
        let logger = Logger(label: "RecordingLogTests") { _ in FileLogHandler(url: log, level: .info, format: .json) }
        let recordings = try ServeRecordings(folder: folder, sessionLimit: 1 << 20, totalLimit: 1 << 30, logger: logger)
        let tap = try #require(recordings.tap(for: ServeTests.request("visitor"), person: "visitor"))
        Array("Inbox".utf8).withUnsafeBytes { tap.childWrote($0) }
        tap.sessionEnded()

        // Written off the caller's thread once the recorder's queue is done: wait for the line.
        var written: [String: Any]?
        for _ in 0..<500 where written == nil {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            written = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["event"] as? String == "recording written" }
            if written == nil { usleep(20_000) }
        }
        let event = try #require(written, "no `recording written` line")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 1 && event["file"] as? String == names.first, "\(event) \(names)")
        let size = (try FileManager.default.attributesOfItem(atPath: folder + "/" + names[0])[.size] as? NSNumber)?.intValue
        #expect(event["bytes"] as? String == size.map(String.init) && (size ?? 0) > 0, "\(event)")
    }
}
