import ArgumentParser
import Foundation
import ServePolicy
import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

/// `--as NAME`: who is at the keyboard, kept with every record captured and request added.
/// Without it, the Unix user running tabshell. `tabshell serve` passes the person's name (their
/// key's comment); under OpenSSH an authorized_keys line `command="tabshell --as NAME"` does.
struct IdentityOptions: ParsableArguments {
    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Who you are: the name kept with what you capture or add (default: your Unix user name).",
            valueName: "name"))
    var name: String?

    func validate() throws {
        if let name, let problem = PersonName.problem(with: name) {
            throw ValidationError("--as: \(problem)")
        }
    }

    /// The person: `--as`, else the Unix user.
    var person: String { name ?? PersonName.unixUser() }
}
