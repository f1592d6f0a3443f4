import ArgumentParser
import Domain
import Foundation
import Logging
import PhotoPreview
import ServePolicy
import Storage
import TabShell

/// What every `photos` command shares: the database (for the folder and the size limit), who,
/// and (under serve) the person's folder as the server decided it.
public struct UploadOptions: ParsableArguments {
    @OptionGroup public var database: DatabaseOptions
    @OptionGroup public var identity: IdentityOptions
    @OptionGroup public var served: ServedSessionOptions

    public init() {}

    public func folder(environment: [String: String]) -> PersonFolder {
        if let path = served.folder { return PersonFolder(path: path) }
        return PersonFolder(person: identity.person, beside: database.databaseURL(environment: environment))
    }
}

/// `tabshell photos add NAME < file`
public struct PhotosAdd: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Keep the image on standard input as one of your uploads, named NAME.",
        discussion:
            "The same checks as capture: at most the Largest photo file setting (50 MiB by default), a PNG, JPEG, GIF, WebP, BMP or HEIC image by its bytes, and not damaged (cut short, or data that cannot be decoded). An upload of the same name is replaced."
    )

    @OptionGroup public var options: UploadOptions

    @Argument(help: ArgumentHelp("The name to keep it under (no folders).", valueName: "name"))
    public var name: String

    /// What the person's uploads may hold, photos and bytes (`serve` gives it; a client cannot).
    @Option(name: .customLong("upload-quota-count"), help: .hidden)
    public var quotaCount: Int?
    @Option(name: .customLong("upload-quota-bytes"), help: .hidden)
    public var quotaBytes: Int64?

    public init() {}

    public func validate() throws {
        if let problem = UploadFolder.problem(with: name) { throw ValidationError(problem) }
    }

    var quota: UploadQuota? {
        guard quotaCount != nil || quotaBytes != nil else { return nil }
        return UploadQuota(count: quotaCount ?? .max, bytes: quotaBytes ?? .max)
    }

    public func execute(_ context: CommandContext) throws {
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
            // A damaged photo is refused here as capture refuses it when it stages one.
            let image = try uploads.add(name, from: context.inputDescriptor, maxBytes: maximum, quota: quota) { file in
                PhotoIntegrity.damage(of: file).map { "\(name) was not added. \($0.sentence)" }
            }
            let bytes = uploads.byteSize(of: name) ?? 0
            logger.info("photos add", metadata: ["name": "\(name)", "bytes": "\(bytes)", "by": "\(options.identity.person)"])
            try finishing(context, writing: "Kept \(name): \(image.format.title) \(image.pixelWidth)x\(image.pixelHeight), \(bytes) bytes.\n")
        } catch let error as StorageError {
            logger.notice("photos add refused", metadata: ["name": "\(name)", "reason": "\(error.message)"])
            throw Failure(error.message)
        }
    }
}

/// `tabshell photos list`
public struct PhotosList: CommandBody {
    public static let configuration = CommandConfiguration(commandName: "list", abstract: "List your uploads: name, format, pixel size and bytes.")

    @OptionGroup public var options: UploadOptions

    public init() {}

    public func execute(_ context: CommandContext) throws {
        let uploads = options.folder(environment: context.environment).uploads
        var listing = Listing(
            json: false, key: "uploads", empty: "No uploads. Add one with: photos add NAME < file",
            columns: [.init(title: "NAME", maximumWidth: 60), .init(title: "FORMAT"), .init(title: "PIXELS"), .init(title: "BYTES", alignRight: true)],
            context: context)
        try finishing {
            for name in uploads.names() {
                let image = uploads.inspect(name)
                try listing.add(
                    json: "",
                    row: [
                        name, image?.format.title ?? "?", image.map { "\($0.pixelWidth)x\($0.pixelHeight)" } ?? "?",
                        String(uploads.byteSize(of: name) ?? 0),
                    ])
            }
            try listing.finish()
        }
    }
}

/// `tabshell photos remove NAME`
public struct PhotosRemove: CommandBody {
    public static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete one of your uploads (photos already captured keep their own copy).")

    @OptionGroup public var options: UploadOptions

    @Argument(help: ArgumentHelp("The upload's name.", valueName: "name"))
    public var name: String

    public init() {}

    public func execute(_ context: CommandContext) throws {
        let logger = options.database.logger(context)
        try options.folder(environment: context.environment).uploads.remove(name)
        logger.info("photos remove", metadata: ["name": "\(name)", "by": "\(options.identity.person)"])
        try finishing(context, writing: "Removed \(name).\n")
    }
}
