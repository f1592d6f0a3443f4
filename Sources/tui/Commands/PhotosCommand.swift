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
        subcommands: [PhotosAddCommand.self, PhotosListCommand.self, PhotosRemoveCommand.self]
    )
}

/// `tabshell photos add NAME < file`
struct PhotosAddCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Keep the image on standard input as one of your uploads, named NAME.",
        discussion:
            "The same checks as capture: at most the Largest photo file setting (50 MiB by default), a PNG, JPEG, GIF, WebP, BMP or HEIC image by its bytes, and not damaged (cut short, or data that cannot be decoded). An upload of the same name is replaced."
    )

    @OptionGroup var options: PhotosAdd
}

/// `tabshell photos list`
struct PhotosListCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List your uploads: name, format, pixel size and bytes."
    )

    @OptionGroup var options: PhotosList
}

/// `tabshell photos remove NAME`
struct PhotosRemoveCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete one of your uploads (photos already captured keep their own copy)."
    )

    @OptionGroup var options: PhotosRemove
}
