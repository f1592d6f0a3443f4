import Domain
import Foundation
import TestSupport
import Testing

/// config.toml on the real binary: a rebinding used in tmux and shown in the hint line
/// and the help, bad lines reported on screen one after another, and `tabshell config`'s exit
/// codes and standard error. Each test has its own XDG_CONFIG_HOME.
@Suite(.serialized, .tags(.e2e))
struct ConfigEndToEndTests {
    /// A folder for XDG_CONFIG_HOME holding `tabshell/config.toml` with `text` (none for nil).
    static func configHome(_ text: String?) throws -> TemporaryFolder {
        let folder = try TemporaryFolder(prefix: "tabshell-config")
        try FileManager.default.createDirectory(atPath: folder.path("tabshell"), withIntermediateDirectories: true)
        if let text { _ = try folder.write(text, to: "tabshell/config.toml") }
        return folder
    }

    /// `tabshell ARGUMENTS` run to its end: exit status, standard output, standard error.
    static func run(_ arguments: [String], configHome: String) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = TmuxSession.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = configHome
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test func aRebindingOpensCaptureAndTheHintsAndHelpShowIt() throws {
        let home = try Self.configHome("# mine\n[keys]\ncreate = [\"c\"]\n")
        let s = try TmuxSession.gatedLaunch("--demo", environment: ["XDG_CONFIG_HOME": home.path])
        try s.go()
        let start = try s.waitFor(text: "c create")
        #expect(!start.contains("2 create"))
        // 2 no longer opens capture: the help that ? opens after it shows over the tab shell.
        try s.press("2")
        try s.press("?")
        let help = try s.waitFor(text: "Show every key")
        #expect(help.contains("+ Create: open capture mode"))
        #expect(help.contains("c  ") || help.contains(" c "), "the help lists c for create:\n\(help)")
        #expect(!help.contains("2/+"))
        try s.press("Escape")
        try s.waitForGone(text: "Show every key")
        try s.press("c")
        try s.waitFor(text: "Barcode")
        try s.press("Escape")
        try s.waitFor(text: "c create")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    @Test func badLinesAreShownOnScreenOneAfterAnotherAndTheAppRuns() throws {
        let home = try Self.configHome("# mine\ntheme = \"blue\"\n[keys]\ncreat = [\"x\"]\ncreate = [\"c\"]\n")
        let s = try TmuxSession.gatedLaunch("--demo", environment: ["XDG_CONFIG_HOME": home.path])
        try s.go()
        let first = try s.waitFor(text: "config.toml:2: unknown theme")
        #expect(!first.contains("config.toml:4"))
        // The next key that clears the status line brings the next problem, once.
        try s.press("l")
        try s.waitFor(text: "config.toml:4: unknown action `creat`")
        try s.press("l")
        try s.waitForGone(text: "config.toml:")
        // The good line next to them is in force.
        try s.waitFor(text: "c create")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    @Test func aFileThatCrashedTheParserIsSaidOnScreenAndTheAppRuns() throws {
        let home = try Self.configHome("a = " + String(repeating: "[\n", count: 19_000))
        let s = try TmuxSession.gatedLaunch("--demo", environment: ["XDG_CONFIG_HOME": home.path])
        try s.go()
        try s.waitFor(text: "config.toml:32: tables, keys")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    @Test func configCheckExitsNonZeroWithEachProblemOnStandardError() throws {
        let missing = try Self.configHome(nil)
        let absent = try Self.run(["config", "check"], configHome: missing.path)
        #expect(absent.status == 0)
        #expect(absent.output.contains("No configuration file at \(missing.path)/tabshell/config.toml"))
        #expect(absent.errors.isEmpty)
        #expect(try Self.run(["config", "path"], configHome: missing.path).output == "\(missing.path)/tabshell/config.toml\n")

        let defaults = try Self.run(["config", "default"], configHome: missing.path)
        #expect(defaults.status == 0)
        #expect(defaults.output.contains("create = [\"2\", \"+\"]"))
        let good = try Self.configHome(defaults.output)
        let checked = try Self.run(["config", "check"], configHome: good.path)
        #expect(checked.status == 0, "\(checked.errors)")
        #expect(checked.errors.isEmpty)
        #expect(checked.output.hasSuffix("is good.\n"))

        let bad = try Self.configHome("theme = \"dark\"\n[keys]\ncreate = [\"c\"]\nhistory_mode = [\"c\"]\nsearch = [\"\\u001b[31m\"]\n")
        let refused = try Self.run(["config", "check"], configHome: bad.path)
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        let lines = refused.errors.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(refused.errors)")
        #expect(lines.first == "config.toml:4: \"c\" is bound to both `create` (config.toml:3) and `history_mode` (config.toml:4) in History; both keep their defaults.")
        #expect(lines.last?.hasPrefix("config.toml:5: unknown key \"") == true)
        #expect(!refused.errors.contains("\u{1b}"), "no escape reaches the terminal")

        // The files that crashed the parser: one line each, exit 1, no crash (the generated worst).
        let deep = [
            "[" + Array(repeating: "a", count: 50_000).joined(separator: ".") + "]\n",
            "a = " + String(repeating: "[\n", count: 19_000),
            "a = " + String(repeating: "{ b.c = \n", count: 19_000),
            "\"" + String(repeating: "k", count: 200_000) + "\" = 1\n",
        ]
        for text in deep {
            let home = try Self.configHome(text)
            let checked = try Self.run(["config", "check"], configHome: home.path)
            #expect(checked.status == 1, "\(checked.errors.prefix(300))")
            #expect(checked.errors.hasPrefix("config.toml:") && checked.errors.split(separator: "\n").count == 1, "\(checked.errors.prefix(300))")
        }

        let broken = try Self.configHome("[keys\n")
        let syntax = try Self.run(["config", "check"], configHome: broken.path)
        #expect(syntax.status == 1)
        #expect(syntax.errors.hasPrefix("config.toml:1: not valid TOML"))
    }
}
