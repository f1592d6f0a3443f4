import ArgumentParser
import Foundation
import Logging
import ServePolicy
import TabShellCommands

/// Hidden options `tabshell serve` gives the app it runs for a person: their folder (uploads,
/// the navigation to come back to) and the resume window. Not for people to type.
struct ServedSessionOptions: ParsableArguments {
    @Option(name: .customLong("session-folder"), help: .hidden)
    var folder: String?

    @Option(name: .customLong("resume-within"), help: .hidden)
    var resumeSeconds = 0

    func validate() throws {
        if let folder, !folder.hasPrefix("/") {
            throw ValidationError("--session-folder needs an absolute path.")
        }
        if resumeSeconds < 0 { throw ValidationError("--resume-within must be 0 or more seconds.") }
    }

    /// A served session as it starts: the person's folder, and whether this session is theirs
    /// to keep (it holds their session lock) and comes back to a snapshot. Nil when not served.
    func start(person: String, logger: Logger) -> ServedSession? {
        guard let folder else { return nil }
        return ServedSession.start(folder: folder, resumeSeconds: resumeSeconds, person: person, logger: logger)
    }
}
