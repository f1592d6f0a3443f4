import Foundation
import Scanning
import TestSupport
import Testing

/// The README's first steps work as written: after `make run`, `tabshell` runs by
/// name and `man tabshell` shows its page, with no release build. `make run` calls
/// scripts/install-dev with the debug binary and the page `make man` generated from it; here
/// it runs into a temporary HOME, and the shell there finds both. End to end (`make check` leaves it
/// out): it needs the page `make man` makes, which `make test` does first.
@Suite(.tags(.e2e)) struct DevInstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/install-dev").path
    static let page = root.appendingPathComponent(".build/generated/tabshell.1").path

    /// Runs `script` in bash with HOME and PATH given; stdout and stderr together, and the status.
    static func bash(_ script: String, home: URL, path: String) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script + " 2>&1"]
        process.environment = [
            "HOME": home.path, "PATH": path, "LANG": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80",
            "BIN": BinaryTests.binary.path, "PAGE": page, "SCRIPT": Self.script,
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test func makeRunLeavesTabshellAndItsManPageWhereTheShellFindsThem() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary.path), "build tabshell first")
        try #require(FileManager.default.fileExists(atPath: Self.page), "no \(Self.page): `make man` makes it (make test does)")
        let workspace = try Workspace()
        let home = workspace.url
        let bin = home.appendingPathComponent(".local/bin").path

        // ~/.local/bin not on PATH yet: it is made, and the script says how to add it.
        let first = try Self.bash(#""$SCRIPT" "$BIN" "$PAGE""#, home: home, path: "/usr/bin:/bin")
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("\(bin)/tabshell now runs this build"), "\(first.output)")
        #expect(first.output.contains("\(bin) is not on PATH") && first.output.contains(#"export PATH="\#(bin):$PATH""#), "\(first.output)")
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: bin + "/tabshell")
        #expect(URL(fileURLWithPath: target).resolvingSymlinksInPath() == BinaryTests.binary.resolvingSymlinksInPath())

        // With it on PATH, as the README says: the commands work by name, the page by `man tabshell`.
        let path = "\(bin):/usr/bin:/bin"
        let version = try Self.bash("cd / && tabshell --version && command -v tabshell", home: home, path: path)
        #expect(version.status == 0 && version.output == "0.1.0\n\(bin)/tabshell\n", "\(version.output)")
        let added = try Self.bash(
            #"cd "$HOME" && tabshell inbox add --title "Scan the pallet" && tabshell inbox list"#, home: home, path: path)
        #expect(added.status == 0 && added.output.contains("Scan the pallet"), "\(added.output)")
        let manual = try Self.bash("man -w tabshell && man tabshell", home: home, path: path)
        #expect(manual.status == 0, "\(manual.output)")
        #expect(manual.output.hasPrefix(home.path + "/.local/share/man/man1/tabshell.1\n"), "\(manual.output.prefix(300))")
        #expect(manual.output.contains("SYNOPSIS") && manual.output.contains("inbox"), "\(manual.output.prefix(600))")
        // `tabshell` alone runs the app: the synopsis does not ask for a subcommand.
        #expect(manual.output.contains("tabshell [subcommand]"), "\(manual.output.prefix(600))")
        let rendered = try Self.bash(#"man -l "$HOME/.local/share/man/man1/tabshell.1""#, home: home, path: path)
        #expect(rendered.status == 0 && rendered.output.contains("tabshell"), "\(rendered.output.prefix(300))")

        // Again (every `make run`): nothing to say while it is on PATH and unchanged.
        let again = try Self.bash(#""$SCRIPT" "$BIN" "$PAGE""#, home: home, path: path)
        #expect(again.status == 0 && again.output.isEmpty, "\(again.output)")
    }

    @Test func aCopyInstalledByMakeInstallIsLeftAlone() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let bin = workspace.url.appendingPathComponent(".local/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Data("#!/bin/sh\necho installed\n".utf8).write(to: bin.appendingPathComponent("tabshell"))

        let result = try Self.bash(#""$SCRIPT" "$BIN" "$PAGE""#, home: workspace.url, path: "\(bin.path):/usr/bin:/bin")

        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("is an installed copy (make install): left as it is"), "\(result.output)")
        #expect(try String(contentsOf: bin.appendingPathComponent("tabshell"), encoding: .utf8) == "#!/bin/sh\necho installed\n")
    }
}
