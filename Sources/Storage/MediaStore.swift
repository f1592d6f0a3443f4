import Domain
import Foundation

/// Where a database keeps its files: one private folder beside the database file, named after
/// it (`tabshell.sqlite` → `tabshell.sqlite.files/`), holding
///
/// - `media/`: committed photos, `<uuid>.<ext>`, mode 0600;
/// - `staging/<session-uuid>/`: one folder per capture in progress (see ``StagingSession``);
/// - `quarantine/<timestamp>/`: files start-up recovery found without a database row.
///
/// The folder is named after the database (rather than `media/` beside it) so that two
/// databases in one folder, or a database kept in a folder of the user's own files, never
/// share or sweep each other's photos. Folders are created on first use, mode 0700.
public struct MediaStore: Equatable, Sendable {
    /// `<database file>.files`, the parent of every folder below.
    public let rootDirectory: URL

    /// Paths for the database at `databaseURL`.
    public init(databaseURL: URL) {
        rootDirectory = databaseURL.deletingLastPathComponent()
            .appendingPathComponent(databaseURL.lastPathComponent + ".files", isDirectory: true)
    }

    /// Committed photos.
    public var mediaDirectory: URL { rootDirectory.appendingPathComponent("media", isDirectory: true) }
    /// One folder per capture in progress.
    public var stagingDirectory: URL { rootDirectory.appendingPathComponent("staging", isDirectory: true) }
    /// Files moved aside by start-up recovery, one folder per recovery.
    public var quarantineDirectory: URL { rootDirectory.appendingPathComponent("quarantine", isDirectory: true) }

    /// The committed file named `storedName`.
    public func url(forStoredName storedName: String) -> URL {
        mediaDirectory.appendingPathComponent(storedName, isDirectory: false)
    }

    // MARK: - Internal

    /// Creates the root and `child` (0700) if they are missing and returns `child`'s path.
    package func prepare(_ child: URL) throws(StorageError) -> String {
        try DurableFiles.makePrivateDirectory(rootDirectory.path)
        try DurableFiles.makePrivateDirectory(child.path)
        return child.path
    }

    /// The file extension used for a stored photo of `format`: its name, but `jpg` for a JPEG.
    package static func fileExtension(for format: ImageFormat) -> String {
        format == .jpeg ? "jpg" : format.rawValue
    }

    /// A new stored name: a random UUID and the format's extension.
    package static func newStoredName(for format: ImageFormat) -> String {
        UUID().uuidString.lowercased() + "." + fileExtension(for: format)
    }

    /// True when `name` has the exact shape of a stored name tabshell generates, so it is
    /// safe to join to a folder path (no "/", no "..", no leading dot).
    package static func isStoredName(_ name: String, format: ImageFormat? = nil) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, UUID(uuidString: String(parts[0])) != nil else { return false }
        let formats = format.map { [$0] } ?? ImageFormat.allCases
        return formats.contains { fileExtension(for: $0) == parts[1] }
    }
}
