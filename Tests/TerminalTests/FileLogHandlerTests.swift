import Foundation
import Glibc
import Logging
import Testing

@testable import TabShellCommands

/// A fresh directory under the system temporary directory, removed by `cleanUp`.
private func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("TerminalTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

private func cleanUp(_ directory: URL) {
    try? FileManager.default.removeItem(at: directory)
}

private func logger(_ url: URL, level: Logger.Level = .trace, maxBytes: Int = 1 << 20) -> Logger {
    Logger(label: "TerminalTests") { _ in FileLogHandler(url: url, level: level, maxBytes: maxBytes) }
}

private func contents(_ url: URL) -> String? {
    (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
}

private func permissions(_ url: URL) -> mode_t? {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}

/// Runs `body` on its own thread and reports whether it returned within `seconds`. Logging
/// that blocks forever (a deadlock) fails the test instead of hanging the whole test run; the
/// stuck thread is abandoned.
private func finishes(within seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite struct FileLogHandlerTests {
    @Test func writesOneLinePerMessageWithLevelAndMetadata() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        var log = logger(url)
        log[metadataKey: "tab"] = "inbox"
        log.info("first message")
        log.error("second message", metadata: ["code": "42"])

        let text = try #require(contents(url))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3, "two lines, each ending in a newline: \(text)")
        #expect(lines.last == "")
        #expect(lines[0].contains(" info "))
        #expect(lines[0].contains("first message"))
        #expect(lines[0].hasSuffix("tab=inbox"))
        #expect(lines[0].contains("[\(ProcessInfo.processInfo.processIdentifier)]"))
        #expect(lines[1].contains(" error "))
        #expect(lines[1].hasSuffix("second message code=42 tab=inbox"), "metadata sorted by key: \(lines[1])")
    }

    @Test func appendsToAnExistingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        try Data("earlier run\n".utf8).write(to: url)
        logger(url).info("this run")
        let text = try #require(contents(url))
        #expect(text.hasPrefix("earlier run\n"))
        #expect(text.contains("this run"))
    }

    @Test func messagesBelowTheLevelAreNotWritten() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        let log = logger(url, level: .warning)
        log.debug("quiet")
        log.warning("loud")
        let text = try #require(contents(url))
        #expect(!text.contains("quiet"))
        #expect(text.contains("loud"))
    }

    @Test func fileIsCreatedOwnerOnly() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        logger(url).info("secret-ish")
        #expect(permissions(url) == 0o600)
    }

    @Test func rotatesToDotOnePastMaxBytes() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        let rotated = URL(fileURLWithPath: url.path + ".1")
        let log = logger(url, maxBytes: 64)

        // A short line is under 64 bytes ("<20-char stamp> info [pid] message one"); the long
        // second line takes the file past 64. The size is checked before each write, so the
        // third message is the one that rotates, and it starts the fresh file.
        log.info("message one")
        log.info("message two \(String(repeating: "x", count: 40))")
        #expect(!FileManager.default.fileExists(atPath: rotated.path), "no rotation before the file is past the limit")
        try #require(finishes { log.info("message three") }, "logging never returned after rotating (deadlock)")

        var previous = try #require(contents(rotated), "nothing rotated to .1")
        var current = try #require(contents(url))
        #expect(previous.contains("message one") && previous.contains("message two"))
        #expect(!previous.contains("message three"))
        #expect(current.contains("message three"))
        #expect(!current.contains("message one") && !current.contains("message two"))
        #expect(permissions(url) == 0o600)
        #expect(permissions(rotated) == 0o600)

        // Under the limit again: the next line is appended, nothing rotates.
        try #require(finishes { log.info("message four") })
        current = try #require(contents(url))
        #expect(current.contains("message three") && current.contains("message four"))
        #expect(try #require(contents(rotated)) == previous)

        // Three and four together are past 64 bytes: the next message rotates again, replacing
        // .1; only one old generation is kept.
        try #require(finishes { log.info("message five") })
        previous = try #require(contents(rotated))
        current = try #require(contents(url))
        #expect(!previous.contains("message one"))
        #expect(previous.contains("message three") && previous.contains("message four"))
        #expect(current.split(separator: "\n").count == 1 && current.contains("message five"))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".2"))
    }

    /// The same with the limit the app uses: a log that is already over 1 MiB at start-up is
    /// rotated by the first message, which is then written to a fresh file.
    @Test func oversizedLogFromAnEarlierRunIsRotatedByTheFirstMessage() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        try Data(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1).write(to: url)
        let log = logger(url)
        try #require(finishes { log.info("fresh start") }, "logging never returned after rotating (deadlock)")
        #expect(try #require(contents(url)).contains("fresh start"))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: url.path + ".1")))?.count == (1 << 20) + 1)
    }

    @Test func noRotationWhileUnderMaxBytes() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        let url = directory.appendingPathComponent("tabshell.log")
        let log = logger(url, maxBytes: 1 << 20)
        for index in 0..<50 { log.info("line \(index)") }
        #expect(!FileManager.default.fileExists(atPath: url.path + ".1"))
        #expect(try #require(contents(url)).split(separator: "\n").count == 50)
    }

    @Test func unwritablePathIsSilentlyIgnored() throws {
        let directory = try makeTemporaryDirectory()
        defer { cleanUp(directory) }
        // A directory that does not exist, and a path that is a directory: open() fails for both
        // (even as root), and logging must neither crash nor throw.
        let missing = directory.appendingPathComponent("no/such/dir/tabshell.log")
        logger(missing).error("lost")
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        let isDirectory = directory.appendingPathComponent("dir.log")
        try FileManager.default.createDirectory(at: isDirectory, withIntermediateDirectories: false)
        logger(isDirectory, maxBytes: 0).error("lost too")
        var flag: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: isDirectory.path, isDirectory: &flag) && flag.boolValue)
    }

    /// When the log is over the limit but cannot be renamed to `.1` (here `.1` is a directory,
    /// so rename() fails with EISDIR even for root), logging must still return, without
    /// crashing (e.g. by retrying the rotation forever). Run in a child process, which gives
    /// itself 10 seconds and exits non-zero when the write is stuck.
    @Test func failedRotationNeitherHangsNorCrashes() async {
        await #expect(processExitsWith: .success) {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("TerminalTests-\(UUID().uuidString)", isDirectory: true)
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = directory.appendingPathComponent("tabshell.log")
            try? FileManager.default.createDirectory(atPath: url.path + ".1", withIntermediateDirectories: false)
            try? Data(String(repeating: "x", count: 200).utf8).write(to: url)
            let log = Logger(label: "TerminalTests") { _ in FileLogHandler(url: url, level: .trace, maxBytes: 64) }
            let done = DispatchSemaphore(value: 0)
            Thread {
                log.info("after a failed rotation")
                done.signal()
            }.start()
            if done.wait(timeout: .now() + 10) != .success {
                try? FileManager.default.removeItem(at: directory)
                _exit(2)
            }
        }
    }
}
