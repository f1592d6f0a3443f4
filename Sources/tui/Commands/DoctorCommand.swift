import ArgumentParser
import TabShellCommands

/// `tabshell doctor`: checks the terminal, the data folder and the database, and says how to fix
/// each problem. Changes nothing: the database is opened read-only, never migrated or swept.
struct DoctorCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the terminal, the data folder and the database; print a fix for each problem.",
        discussion: """
            Read-only: nothing is created, migrated, swept or repaired. Exits 0 when everything is fine and 1 \
            when a problem was found. Notes (marked "note") are worth knowing but not problems.
            """
    )

    @OptionGroup var options: DoctorChecks
}
