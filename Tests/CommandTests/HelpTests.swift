import Foundation
import Testing

/// The help of every command, as the built binary's `--help` prints it at 100 columns (the
/// executable's command tree: its names, help texts and the option groups of TabShellCommands).
@Suite struct HelpTests {
    /// Each command's words after `tabshell`, named as its golden file is (`inbox-add`).
    static let commands: [[String]] = [
        [], ["inbox"], ["inbox", "add"], ["inbox", "list"], ["inbox", "import"], ["inbox", "reopen"], ["inbox", "remove"],
        ["history"], ["history", "list"], ["history", "export"], ["history", "import"],
        ["catalog"], ["catalog", "import"], ["catalog", "list"], ["catalog", "clear"],
        ["photos"], ["photos", "add"], ["photos", "list"], ["photos", "remove"],
        ["serve"], ["doctor"], ["db"], ["db", "copy"], ["generate"], ["replay"], ["watch"], ["mcp"],
        ["config"], ["config", "path"], ["config", "check"], ["config", "default"],
    ]

    static func name(_ words: [String]) -> String { words.isEmpty ? "tabshell" : words.joined(separator: "-") }

    /// Runs the binary with `arguments`, 100 columns wide; its standard output.
    static func run(_ arguments: [String]) throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary.path), "build tabshell first")
        let process = Process()
        process.executableURL = BinaryTests.binary
        process.arguments = arguments
        process.environment = ["COLUMNS": "100", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: commands)
    func helpMatchesGoldenFile(words: [String]) throws {
        let help = try Self.run(words + ["--help"])
        #expect(help.contains("USAGE:"))
        try Golden.check(help, "help-\(Self.name(words)).txt")
    }

    @Test func everySubcommandHasAGoldenHelpFile() throws {
        // A new subcommand without help coverage fails here.
        struct Command: Decodable {
            var commandName: String
            var subcommands: [Command]?
        }
        struct Dump: Decodable { var command: Command }
        func walk(_ command: Command, _ words: [String]) -> [[String]] {
            [words] + (command.subcommands ?? []).filter { $0.commandName != "help" }.flatMap { walk($0, words + [$0.commandName]) }
        }
        let dump = try JSONDecoder().decode(Dump.self, from: Data(try Self.run(["--experimental-dump-help"]).utf8))
        #expect(walk(dump.command, []).map(Self.name).sorted() == Self.commands.map(Self.name).sorted())
    }

    /// `tabshell --help`'s USAGE names every command a user can run: each shown subcommand has a
    /// line `tabshell NAME …`, and a group's line lists each of its shown subcommands (`a|b|c`).
    @Test func usageListsEverySubcommand() throws {
        struct Command: Decodable {
            var commandName: String
            var shouldDisplay: Bool?
            var subcommands: [Command]?
            var shown: [Command] { (subcommands ?? []).filter { $0.commandName != "help" && $0.shouldDisplay != false } }
        }
        struct Dump: Decodable { var command: Command }
        let dump = try JSONDecoder().decode(Dump.self, from: Data(try Self.run(["--experimental-dump-help"]).utf8))
        let help = try Self.run(["--help"])
        let usage = help.components(separatedBy: "USAGE:").last?.components(separatedBy: "\n\n").first ?? ""
        // Each line's words after `tabshell` (a line may offer two: `tabshell --present | tabshell watch <code>`).
        let lines = usage.split(separator: "\n").flatMap { $0.components(separatedBy: "|   tabshell") }.map {
            $0.replacingOccurrences(of: "tabshell", with: "").split(separator: " ").map(String.init)
        }
        #expect(dump.command.shown.count >= 10)
        for command in dump.command.shown {
            let line = lines.first { $0.first == command.commandName }
            #expect(line != nil, "USAGE has no line for \(command.commandName):\n\(usage)")
            let listed = Set((line?.dropFirst().first ?? "").split(separator: "|").map(String.init))
            for sub in command.shown {
                #expect(listed.contains(sub.commandName), "USAGE's \(command.commandName) line lacks \(sub.commandName):\n\(usage)")
            }
        }
    }

    @Test func completionScriptsAreGeneratedForEveryShell() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try Self.run(["--generate-completion-script", shell])
            #expect(script.contains("export"), "\(shell) completion lacks the export subcommand")
            #expect(script.contains("doctor"), "\(shell) completion lacks doctor")
        }
    }
}
