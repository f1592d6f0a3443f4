import Domain
import Foundation

/// The files of one capture in progress: a private folder `staging/<uuid>/` that this object
/// owns through an exclusive lock on its `lock` file for as long as it is open.
///
/// Photos are copied in the moment they are chosen (``stage(fileAt:originalName:maxBytes:progress:)``),
/// so they survive a crash or a dropped link; `draft.json` records what the capture has
/// collected so start-up recovery can offer it back. Nothing here touches the database:
/// `AppDatabase.commitCapture(_:staging:now:)` moves the files into the media folder on Done,
/// and ``discard()`` deletes them on Close.
///
/// The folder holds `lock`, `draft.json`, the staged photos `<uuid>.<ext>` (mode 0600) and,
/// only while a copy or a draft write is under way, temporary files `.tmp-<uuid>`.
public final class StagingSession {
    /// The size of each read and write when copying a photo: 256 KiB.
    public static let copyChunkSize = 256 * 1024
    static let draftFileName = "draft.json"

    /// The session's identity; also its folder's name and, once committed, `capture.stagingId`.
    public let id: UUID
    /// `staging/<uuid>/`.
    public let directory: URL
    /// The staged photos, in the order they were added.
    public private(set) var photos: [StagedPhoto]
    /// The draft last saved with ``saveDraft(_:)`` (its photos are always ``photos``).
    public private(set) var draft: CaptureDraft?

    let media: MediaStore
    private let lock: DirectoryLock

    init(id: UUID, lock: DirectoryLock, media: MediaStore, draft: CaptureDraft?) {
        self.id = id
        self.directory = URL(fileURLWithPath: lock.directory, isDirectory: true)
        self.lock = lock
        self.media = media
        self.draft = draft
        self.photos = draft?.photos ?? []
    }

    /// True until the session is committed, discarded or closed.
    public var isOpen: Bool { lock.isHeld }

    public var path: String { directory.path }

    /// Where a photo staged by this session is on disk (for reading it: previews, codes).
    public func fileURL(of photo: StagedPhoto) -> URL {
        URL(fileURLWithPath: path + "/" + photo.storedName)
    }
    public var stagingID: String { id.uuidString.lowercased() }

    // MARK: - Starting

    /// Creates a new staging folder (0700) under `media`'s staging folder and locks it.
    static func begin(in media: MediaStore) throws(StorageError) -> StagingSession {
        let staging = try media.prepare(media.stagingDirectory)
        for _ in 0..<5 {
            let id = UUID()
            let directory = staging + "/" + id.uuidString.lowercased()
            guard mkdir(directory, 0o700) == 0 else {
                if errno == EEXIST { continue }
                throw .cannotCreate(path: directory, reason: DurableFiles.reason(errno: errno))
            }
            _ = chmod(directory, 0o700)
            // A start-up recovery in another process may lock the new, empty folder before we
            // do and remove it; then we simply start over with another name.
            guard case let .acquired(lock) = DirectoryLock.acquire(directory) else { continue }
            // So that a power loss cannot forget the folder while its photos are on disk.
            try? DurableFiles.syncDirectory(staging)
            return StagingSession(id: id, lock: lock, media: media, draft: nil)
        }
        throw .fileSystem("Cannot start a capture in \(staging): its staging folder kept disappearing.")
    }

    // MARK: - Photos

    /// Copies the image file at `path` into the staging folder and returns what was staged.
    ///
    /// Only a regular file is read: `path` is opened without following a symbolic link in its
    /// last component and without blocking (so a FIFO cannot hang the copy), and anything but a
    /// regular file is refused before a byte is read. The format comes from the magic bytes, never
    /// the name; files bigger than `maxBytes` are refused. The copy goes to a temporary file, is
    /// fsynced and renamed to its stored name, and the folder is fsynced before `draft.json`
    /// lists it. Any failure removes the temporary file. Before the first ``saveDraft(_:)``, the
    /// draft written is a Photos capture in phase "photos".
    ///
    /// - Parameters:
    ///   - originalName: The name to show and to use in messages (the last path component when empty).
    ///   - progress: Called after each chunk with (bytes copied, total bytes); return false to
    ///     cancel, which throws ``StorageError/cancelled``.
    public func stage(
        fileAt path: String, originalName: String, maxBytes: Int64,
        progress: (Int64, Int64) -> Bool = { _, _ in true }
    ) throws(StorageError) -> StagedPhoto {
        guard isOpen else { throw .stagingClosed }
        let name = originalName.isEmpty ? (path as NSString).lastPathComponent : originalName

        let source = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard source >= 0 else { throw Self.refusal(opening: name, errno: errno) }
        defer { DurableFiles.closeDescriptor(source) }
        var before = stat()
        guard fstat(source, &before) == 0 else {
            throw .fileRefused("Cannot read \(name): \(DurableFiles.reason(errno: errno)).")
        }
        if let kind = Self.notRegularFile(before) {
            throw .fileRefused("\(name) is \(kind), not a file.")
        }
        let size = Int64(before.st_size)
        guard size <= maxBytes else {
            throw .fileRefused(
                "\(name) is \(Self.megabytes(size)); a photo can be at most \(Self.megabytes(maxBytes)).")
        }

        var buffer = [UInt8](repeating: 0, count: Self.copyChunkSize)
        let headerCount = buffer.withUnsafeMutableBytes {
            DurableFiles.readFully(source, into: $0, count: ImageInspector.headerLength)
        }
        guard headerCount >= 0 else {
            throw .fileRefused("Cannot read \(name): \(DurableFiles.reason(errno: errno)).")
        }
        guard let image = ImageInspector.inspect(header: Array(buffer[0..<headerCount])) else {
            throw .fileRefused("\(name) is not a PNG, JPEG, GIF, WebP, BMP or HEIC image.")
        }

        let storedName = MediaStore.newStoredName(for: image.format)
        let temp = self.path + "/" + DurableFiles.tempPrefix + UUID().uuidString.lowercased()
        let copied = try copy(
            from: source, firstChunk: headerCount, buffer: &buffer, size: size, to: temp,
            name: name, progress: progress)
        guard copied == size, Self.unchanged(source, since: before) else {
            _ = unlink(temp)
            throw .fileRefused("\(name) changed while it was copied; try again.")
        }
        guard rename(temp, self.path + "/" + storedName) == 0 else {
            let failure = errno
            _ = unlink(temp)
            throw .fileSystem("Cannot stage \(name): \(DurableFiles.reason(errno: failure)).")
        }
        let photo = StagedPhoto(
            storedName: storedName, originalName: name, format: image.format,
            pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, byteSize: size)
        do {
            try DurableFiles.syncDirectory(self.path)
            photos.append(photo)
            // The path typed for this photo is spent: the draft names the photo instead.
            draft?.typedPath = nil
            try writeDraft()
        } catch {
            photos.removeAll { $0 == photo }
            _ = unlink(self.path + "/" + storedName)
            throw error
        }
        return photo
    }

    /// Copies `source` to a new file `temp` (0600, fsynced, closed); the first `firstChunk`
    /// bytes are already in `buffer`. Returns the number of bytes copied, stopping early when
    /// the source turns out longer than `size`.
    private func copy(
        from source: Int32, firstChunk: Int, buffer: inout [UInt8], size: Int64, to temp: String,
        name: String, progress: (Int64, Int64) -> Bool
    ) throws(StorageError) -> Int64 {
        let target = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            throw .fileSystem("Cannot stage \(name): \(DurableFiles.reason(errno: errno)).")
        }
        _ = fchmod(target, 0o600)
        var copied: Int64 = 0
        var chunk = firstChunk
        var failure: StorageError?
        while chunk > 0 {
            let writeError = buffer.withUnsafeBytes { DurableFiles.writeAll(target, UnsafeRawBufferPointer(rebasing: $0[0..<chunk])) }
            if writeError != 0 {
                failure = Self.writeFailure(name: name, errno: writeError)
                break
            }
            copied += Int64(chunk)
            if copied > size { break }
            if !progress(copied, size) {
                failure = .cancelled
                break
            }
            chunk = buffer.withUnsafeMutableBytes { DurableFiles.readFully(source, into: $0, count: $0.count) }
            if chunk < 0 {
                failure = .fileRefused("Cannot read \(name): \(DurableFiles.reason(errno: errno)).")
                break
            }
        }
        if failure == nil, DurableFiles.fsyncRetrying(target) != 0 {
            failure = Self.writeFailure(name: name, errno: errno)
        }
        DurableFiles.closeDescriptor(target)
        if let failure {
            _ = unlink(temp)
            throw failure
        }
        return copied
    }

    /// Deletes one staged photo and updates `draft.json`.
    public func remove(_ photo: StagedPhoto) throws(StorageError) {
        guard isOpen else { throw .stagingClosed }
        guard let index = photos.firstIndex(where: { $0.storedName == photo.storedName }),
            MediaStore.isStoredName(photo.storedName)
        else {
            throw .invalidInput("\(photo.originalName) is not staged in this capture.")
        }
        let file = path + "/" + photo.storedName
        guard unlink(file) == 0 || errno == ENOENT else {
            throw .fileSystem("Cannot remove \(file): \(DurableFiles.reason(errno: errno)).")
        }
        photos.remove(at: index)
        try DurableFiles.syncDirectory(path)
        try writeDraft()
    }

    // MARK: - Draft

    /// Records what the capture has collected in `draft.json` (written atomically), so it can be
    /// offered back after a crash. The saved draft's photos are always this session's ``photos``.
    ///
    /// With `durably` false the file is in place for any process once this returns (a kill or a
    /// crash of this one cannot lose it), and ``syncDraft(at:)`` makes it durable against a power
    /// loss, from any thread: for drafts saved on every keystroke.
    public func saveDraft(_ draft: CaptureDraft, durably: Bool = true) throws(StorageError) {
        guard isOpen else { throw .stagingClosed }
        self.draft = draft
        try writeDraft(durably: durably)
    }

    /// Where this session's `draft.json` is, for ``syncDraft(at:)``.
    public var draftPath: String { path + "/" + Self.draftFileName }

    /// Flushes a draft saved with `durably: false` to the disk. Touches no session state, so a
    /// background thread may call it while the session goes on; a folder gone meanwhile (Done,
    /// Close) throws.
    public static func syncDraft(at draftPath: String) throws(StorageError) {
        try DurableFiles.syncFile(draftPath)
    }

    private func writeDraft(durably: Bool = true) throws(StorageError) {
        var draft =
            self.draft
            ?? CaptureDraft(kind: .photos, phase: "photos", updatedAt: Date())
        draft.photos = photos
        self.draft = draft
        let data: Data
        do {
            data = try JSONEncoder.draft.encode(draft)
        } catch {
            throw .fileSystem("Cannot save the draft in \(path): \(error.localizedDescription).")
        }
        try DurableFiles.writeAtomically(data, to: path + "/" + Self.draftFileName, durably: durably)
    }

    // MARK: - Ending

    /// Close: deletes the staging folder and everything in it, then releases the lock. The
    /// database is not touched. Does nothing when the session is no longer open.
    public func discard() {
        guard isOpen else { return }
        // Forget the draft first and make that durable: even if the folder removal were lost to
        // a power cut, what remains would have nothing to offer back and would be swept.
        if unlink(path + "/" + Self.draftFileName) == 0 {
            try? DurableFiles.syncDirectory(path)
        }
        lock.removeDirectory()
        try? DurableFiles.syncDirectory(media.stagingDirectory.path)
    }

    /// Releases the lock and keeps the folder, as a crash would: the next start-up recovery
    /// offers the draft back (or sweeps the folder when it holds nothing worth keeping).
    public func close() {
        lock.release()
    }

    deinit {
        lock.release()
    }

    // MARK: - Committing (used by AppDatabase)

    /// The staged photos named by `submitted`, in that order, with the facts recorded at staging
    /// time (not the caller's copies).
    func resolve(_ submitted: [StagedPhoto]) throws(StorageError) -> [StagedPhoto] {
        var seen = Set<String>()
        var resolved: [StagedPhoto] = []
        for photo in submitted {
            guard seen.insert(photo.storedName).inserted else {
                throw .invalidInput("\(photo.originalName) is in the capture twice.")
            }
            guard let staged = photos.first(where: { $0.storedName == photo.storedName }),
                MediaStore.isStoredName(staged.storedName, format: staged.format)
            else {
                throw .invalidInput("\(photo.originalName) is not staged in this capture.")
            }
            resolved.append(staged)
        }
        return resolved
    }

    // MARK: - Reading a folder

    enum DraftFile {
        case missing
        case unreadable
        case draft(CaptureDraft)
    }

    /// The `draft.json` in `directory`.
    static func readDraft(in directory: String) -> DraftFile {
        let path = directory + "/" + draftFileName
        guard let info = DurableFiles.status(path) else { return .missing }
        guard DurableFiles.isRegularFile(info), info.st_size <= 16 * 1024 * 1024,
            let data = FileManager.default.contents(atPath: path),
            let draft = try? JSONDecoder().decode(CaptureDraft.self, from: data)
        else { return .unreadable }
        return .draft(draft)
    }

    // MARK: - Messages

    private static func refusal(opening name: String, errno code: Int32) -> StorageError {
        switch code {
        case ENOENT: .fileRefused("\(name) does not exist.")
        case ELOOP: .fileRefused("\(name) is a symbolic link; choose the file it points to.")
        case EACCES, EPERM: .fileRefused("\(name) cannot be read: permission denied.")
        case ENXIO, ENODEV: .fileRefused("\(name) is not a regular file.")
        default: .fileRefused("Cannot open \(name): \(DurableFiles.reason(errno: code)).")
        }
    }

    /// What the file is when it is not a regular file ("a folder", "a pipe"…), else nil.
    private static func notRegularFile(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "something else"
        }
    }

    private static func writeFailure(name: String, errno code: Int32) -> StorageError {
        if code == ENOSPC || code == EDQUOT {
            return .fileSystem("The disk is full: \(name) could not be copied.")
        }
        return .fileSystem("Cannot copy \(name): \(DurableFiles.reason(errno: code)).")
    }

    /// True when `fd` still has the size and modification time recorded in `before`.
    private static func unchanged(_ fd: Int32, since before: stat) -> Bool {
        var after = stat()
        guard fstat(fd, &after) == 0 else { return false }
        return after.st_size == before.st_size
            && DurableFiles.modificationDate(after) == DurableFiles.modificationDate(before)
    }

    /// "12.5 MB", "10 MB", "0.2 MB" (decimal megabytes, at most one decimal); "900 bytes" below 0.05 MB.
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (Double(bytes) / 100_000).rounded()
        if tenths == 0 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        if tenths.truncatingRemainder(dividingBy: 10) == 0 {
            return "\(Int64(tenths / 10)) MB"
        }
        return String(format: "%.1f MB", tenths / 10)
    }
}

extension JSONEncoder {
    /// How `draft.json` is written: sorted keys, so equal drafts give equal files.
    static var draft: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
