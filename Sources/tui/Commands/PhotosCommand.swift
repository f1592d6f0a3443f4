import ArgumentParser
import Foundation
import Logging
import ServePolicy
import Storage
import TabShell
import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

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

/// What every `photos` command shares: the database (for the folder and the size limit), who,
/// and (under serve) the person's folder as the server decided it.
struct UploadOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var identity: IdentityOptions
    @OptionGroup var served: ServedSessionOptions

    func folder(environment: [String: String]) -> PersonFolder {
        if let path = served.folder { return PersonFolder(path: path) }
        return PersonFolder(person: identity.person, beside: database.databaseURL(environment: environment))
    }
}

/// `tabshell photos add NAME < file`
struct PhotosAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Keep the image on standard input as one of your uploads, named NAME.",
        discussion:
            "The same checks as capture: at most the Largest photo file setting (50 MiB by default), and a PNG, JPEG, GIF, WebP, BMP or HEIC image by its bytes. An upload of the same name is replaced."
    )

    @OptionGroup var options: UploadOptions

    @Argument(help: ArgumentHelp("The name to keep it under (no folders).", valueName: "name"))
    var name: String

    func validate() throws {
        if let problem = UploadFolder.problem(with: name) { throw ValidationError(problem) }
    }

    func run() throws {
        try execute(.process(), input: STDIN_FILENO)
    }

    func execute(_ context: CommandContext, input: Int32) throws {
        umask(0o077)
        let url = options.database.databaseURL(environment: context.environment)
        let logger = options.database.logger(beside: url)
        let uploads = options.folder(environment: context.environment).uploads
        var maximum = Settings.default.maximumPhotoBytes
        if options.database.postgresURL(environment: context.environment) != nil || FileManager.default.fileExists(atPath: url.path),
            let settings = try? options.database.openStore(environment: context.environment, logger: logger).settings()
        {
            maximum = settings.maximumPhotoBytes
        }
        do {
            let image = try uploads.add(name, from: input, maxBytes: maximum)
            let bytes = uploads.byteSize(of: name) ?? 0
            logger.info("photos add", metadata: ["name": "\(name)", "bytes": "\(bytes)", "by": "\(options.identity.person)"])
            try finishing {
                try context.output.write("Kept \(name): \(image.format.title) \(image.pixelWidth)x\(image.pixelHeight), \(bytes) bytes.\n")
                try context.output.finish()
            }
        } catch let error as StorageError {
            logger.notice("photos add refused", metadata: ["name": "\(name)", "reason": "\(error.message)"])
            throw Failure(error.message)
        }
    }
}

/// `tabshell photos list`
struct PhotosListCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List your uploads: name, format, pixel size and bytes."
    )

    @OptionGroup var options: UploadOptions

    func execute(_ context: CommandContext) throws {
        let uploads = options.folder(environment: context.environment).uploads
        let names = uploads.names()
        try finishing {
            if names.isEmpty {
                try context.output.write("No uploads. Add one with: photos add NAME < file\n")
            } else {
                var table = TextTable(
                    columns: [.init(title: "NAME", maximumWidth: 60), .init(title: "FORMAT"), .init(title: "PIXELS"), .init(title: "BYTES", alignRight: true)],
                    unicode: context.localeIsUTF8)
                for name in names {
                    let image = uploads.inspect(name)
                    table.append([
                        name, image?.format.title ?? "?", image.map { "\($0.pixelWidth)x\($0.pixelHeight)" } ?? "?",
                        String(uploads.byteSize(of: name) ?? 0),
                    ])
                }
                try context.output.write(table.render())
            }
            try context.output.finish()
        }
    }
}

/// `tabshell photos remove NAME`
struct PhotosRemoveCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete one of your uploads (photos already captured keep their own copy)."
    )

    @OptionGroup var options: UploadOptions

    @Argument(help: ArgumentHelp("The upload's name.", valueName: "name"))
    var name: String

    func execute(_ context: CommandContext) throws {
        let url = options.database.databaseURL(environment: context.environment)
        let logger = options.database.logger(beside: url)
        do {
            try options.folder(environment: context.environment).uploads.remove(name)
            logger.info("photos remove", metadata: ["name": "\(name)", "by": "\(options.identity.person)"])
            try finishing {
                try context.output.write("Removed \(name).\n")
                try context.output.finish()
            }
        } catch let error as StorageError {
            throw Failure(error.message)
        }
    }
}
