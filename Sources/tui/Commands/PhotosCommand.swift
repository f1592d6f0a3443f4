import ArgumentParser
import TabShellCommands

/// `tabshell photos …`: a person's photo uploads, the only files a `tabshell serve` session's
/// captures may take (by name): `ssh -p 2222 host photos add shelf.jpg < shelf.jpg`.
struct PhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Manage your photo uploads: the files captures under tabshell serve can take.",
        discussion: """
            Under tabshell serve every person runs as the server's one account, so the capture's file \
            field takes only the names in the person's own upload folder (people/<name>/uploads beside \
            the database), never a path. Send a photo with: ssh -p 2222 host photos add NAME < file.
            """,
        subcommands: [PhotosAdd.self, PhotosList.self, PhotosRemove.self]
    )
}
