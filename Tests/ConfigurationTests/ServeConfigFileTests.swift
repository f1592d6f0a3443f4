import Foundation
import Testing

@testable import Configuration

/// serve.toml read into serve's option words, by line; every shape a file can take is answered.
@Suite struct ServeConfigFileTests {
    static func read(_ text: String) -> ServeConfigFile.Read {
        ServeConfigFile.parse(Data(text.utf8))
    }

    @Test func eachSettingBecomesItsOptionsWordsInTheFilesOrder() {
        let read = Self.read(
            """
            # the team's server
            listen = "0.0.0.0:2222"
            max_sessions = 32
            revoke-ends-sessions = true
            demo = false
            """)
        #expect(read.problems.isEmpty)
        #expect(read.entries.map(\.line) == [2, 3, 4, 5])
        // false is the --no- form; serve drops it for a flag that has none (`demo`).
        #expect(read.words == ["--listen=0.0.0.0:2222", "--max-sessions=32", "--revoke-ends-sessions", "--no-demo"])
    }

    @Test func aValueThatStartsWithADashStaysAValue() {
        #expect(Self.read(#"listen = "--db=/etc/shadow""#).words == ["--listen=--db=/etc/shadow"])
    }

    @Test func tablesNamesAndTheFileItselfAreRefusedByLine() {
        let read = Self.read(
            """
            config = "/other.toml"
            "--db" = "x"
            [limits]
            max = 1
            """)
        #expect(read.entries.isEmpty)
        #expect(read.problems.map(\.line) == [1, 2, 3])
        #expect(read.problems[0].message == "`config` cannot be set in the file; give it on the command line.")
        #expect(read.problems[1].message.contains("is not an option of tabshell serve"))
        #expect(read.problems[2].message == "`limits` takes a string, a number or true/false, not a table or a date.")
    }

    @Test func aFileThatCannotBeReadStartsNothing() {
        let deep = "[" + String(repeating: "a.", count: 50_000) + "a]"
        #expect(Self.read(deep).problems.first?.message.hasSuffix("nothing is started.") == true)
        #expect(Self.read("listen = ").problems.first?.message.hasPrefix("not valid TOML") == true)
        #expect(Self.read("x = \"\u{0}\"").problems.count == 1)
        #expect(ServeConfigFile.load(path: "/nonexistent/serve.toml").problems.map(\.message) == ["there is no such file; nothing is started."])
        #expect(ServeConfigFile.load(path: "/").problems.map(\.message) == ["it is a folder, not a file; nothing is started."])
    }

    @Test func anEmptyFileSetsNothingAndIsNoProblem() throws {
        // A file made with `touch` before anything is written in it: the defaults, no sentence.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).toml").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = ServeConfigFile.load(path: path)
        #expect(read.problems.isEmpty, "\(read.problems.map(\.message))")
        #expect(read.words.isEmpty)
    }
}
