import ArgumentParser
import Domain
import Foundation
import Logging
import SSHServer
import Storage
import TabShell
import Testing

@testable import ServePolicy
@testable import TabShellCommands

/// What other people type or send never reaches a terminal or the log raw, and a word no
/// program can receive whole is refused. The real server, ssh client and binary are
/// driven in Tests/EndToEndTests/ServeEndToEndTests.swift and BinaryTests.
@Suite struct HostileInputTests {
    /// ESC with an OSC title, BEL, CSI as one C1 character, a right-to-left override, an isolate.
    static let hostile = "\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}\u{2066}"

    static func holdsUnsafe(_ text: String) -> Bool {
        text.unicodeScalars.contains { Sanitizer.isUnsafe($0) && $0 != "\n" }
    }

    @Test func aServedCommandWordHoldingANULIsRefused() throws {
        let refused = AllowedCommand.parse(["photos", "add", "a\u{0}/../b"])
        guard case let .failure(refusal) = refused else {
            Issue.record("accepted: \(refused)")
            return
        }
        #expect(refusal.sentence.contains("holds a NUL byte"), "\(refusal.sentence)")
        #expect(!Self.holdsUnsafe(refusal.sentence))
        #expect(throws: Never.self) { try AllowedCommand.parse(["photos", "add", "a.png"]).get() }
        // And so is the whole request, through the launcher, before anything runs.
        let workspace = try Workspace()
        let decision = ServeLauncher(
            executable: "/opt/tabshell", data: .team(database: workspace.databaseURL), resumeWindowSeconds: 0, logLevel: .info,
            logger: ServeTests.quiet
        ).decide(ServeTests.request(command: "photos add 'a\u{0}/../b'", terminal: false))
        guard case let .refuse(sentence, _) = decision else {
            Issue.record("ran: \(decision)")
            return
        }
        #expect(sentence.contains("holds a NUL byte"), "\(sentence)")
    }

    @Test func aRefusalQuotesTheClientPrintable() {
        for words in [["ls", Self.hostile], ["history", "list", "--bogus" + Self.hostile]] {
            guard case let .failure(refusal) = AllowedCommand.parse(words) else {
                Issue.record("accepted: \(words)")
                continue
            }
            #expect(!Self.holdsUnsafe(refusal.sentence), "\(refusal.sentence.debugDescription)")
        }
    }

    @Test(arguments: [
        "~root", "~", "file:x.png", "FILE:shelf.png", "\u{202E}gnp.exe", "a\u{2066}b.png", "a\u{9B}b.png", "a\u{2028}b",
        // the capture trims a name, and invisible characters make two names look the same
        " lead", "trail ", "\u{00A0}lead.png", "trail.png\u{3000}", "a\u{200B}b", "a\u{200C}b", "a\u{200D}b", "a\u{2060}b",
        "\u{FEFF}ab", "a\u{00AD}b", "a\u{3164}b",
    ])
    func anUploadNameTheCaptureCannotUseIsRefusedAtUpload(name: String) {
        #expect(UploadFolder.problem(with: name) != nil, "\(name.debugDescription)")
        #expect(throws: (any Error).self, "\(name.debugDescription)") { try PhotosAdd.parse([name]) }
    }

    @Test func anUploadKeptUnderOlderRulesIsHiddenButCanBeRemoved() throws {
        let workspace = try Workspace()
        let uploads = UploadFolder(path: workspace.url.appendingPathComponent("uploads").path)
        try uploads.prepare()
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: uploads.path + "/~root"))
        #expect(uploads.names().isEmpty, "the capture could not take it, so Tab does not offer it")
        try uploads.remove("~root")
        #expect(!FileManager.default.fileExists(atPath: uploads.path + "/~root"))
        for old in [" lead", "a\u{200B}b"] {
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: uploads.path + "/" + old))
            try uploads.remove(old)
            #expect(!FileManager.default.fileExists(atPath: uploads.path + "/" + old), "\(old.debugDescription) removed by name")
        }
        #expect(throws: StorageError.self) { try uploads.remove("../uploads") }
    }

    @Test func namesTheCaptureCanUseAreStillAccepted() {
        for name in ["shelf.png", "a~b.png", "profile:1.jpg", "寿司.jpg", "Shelf 4 (left).jpeg", "\u{2764}\u{FE0F}.png", "e\u{0301}.png"] {
            #expect(UploadFolder.problem(with: name) == nil, "\(name)")
        }
    }

    @Test func anArgumentParserErrorIsPrintedPrintable() throws {
        var error: (any Error)?
        do { _ = try InboxList.parse(["--bogus" + Self.hostile]) } catch let thrown { error = thrown }
        let thrown = try #require(error)
        let message = InboxList.fullMessage(for: thrown)
        #expect(message.contains("\u{1B}"), "argument-parser quotes the option as typed")
        let printable = printableMessage(message, unicode: true)
        #expect(!Self.holdsUnsafe(printable), "\(printable.debugDescription)")
        #expect(printable.hasPrefix("Error: Unknown option '--bogus␛]0;owned␇"), "\(printable)")
        #expect(printable.split(separator: "\n").count == message.split(separator: "\n").count, "the lines stay lines")
        #expect(!Self.holdsUnsafe(printableMessage(message, unicode: false)))
    }

    @Test func theLogFileKeepsEveryLinePrintable() throws {
        let workspace = try Workspace()
        let file = workspace.url.appendingPathComponent("tabshell.log")
        let logger = Logger(label: "HostileInputTests") { _ in FileLogHandler(url: file, level: .trace) }
        logger.notice("photos add refused \(Self.hostile)\nforged line", metadata: ["name": "\(Self.hostile)\r\nx"])
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1, "one event, one line: \(text.debugDescription)")
        #expect(!Self.holdsUnsafe(text), "\(text.debugDescription)")
        #expect(text.contains("photos add refused ␛]0;owned␇"), "\(text)")
    }

    @Test func theConsoleSummarySkipsWhatTheStartReportPrinted() {
        func event(_ metadata: Logger.Metadata?, level: Logger.Level = .warning) -> LogEvent {
            LogEvent(level: level, message: "authorized keys: k line 2: RSA…", metadata: metadata, source: "", file: "", function: "", line: 0)
        }
        #expect(!SummaryLogHandler.shows(event([SSHServerStartReport.metadataKey: "yes"])))
        #expect(SummaryLogHandler.shows(event(nil)), "a refused line found on a later re-read is news")
        #expect(!SummaryLogHandler.shows(event(nil, level: .debug)))
    }
}
