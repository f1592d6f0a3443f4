import Domain
import Foundation

/// One person's photo uploads under `tabshell serve`: the only files their captures may take.
///
/// Every person of a server runs as the server's one Unix account, so a capture's file field
/// must not reach what that account can read. Here a photo is named, never pathed: a name is
/// one path component (no `/`, not `.` or `..`, no leading dot, `~` or `file:`, no control
/// character or bidi mark: nothing the capture's file field would read otherwise), looked
/// up in this folder only, and only a regular file counts — a symbolic link is neither listed
/// nor accepted, and opening uses `O_NOFOLLOW`, so a link swapped in after the check is refused
/// too. `ssh host photos add NAME < file` fills the folder with the same size limit and image
/// check as capture.
public struct UploadFolder: Equatable, Sendable {
    /// The folder; created 0700 on first use.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The longest name accepted, in bytes (a file name's limit on Linux).
    public static let maximumNameBytes = 255

    // MARK: - Names

    /// Why `name` cannot name an upload, or nil when it can: it must be one file in the folder,
    /// and one the capture's file field can take.
    public static func problem(with name: String) -> String? {
        if let problem = fileProblem(with: name) { return problem }
        if name.unicodeScalars.contains(where: Sanitizer.isUnsafe) {
            return "A photo's name cannot hold control characters, line breaks or text-direction marks."
        }
        // The capture's file field trims what it is given: a name it would trim is one it can
        // never take back.
        let trimmed = CharacterSet.whitespacesAndNewlines
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last, trimmed.contains(first) || trimmed.contains(last) {
            return "A photo's name cannot start or end with a space (the capture would leave it out)."
        }
        if name.unicodeScalars.contains(where: isInvisible) {
            return "A photo's name cannot hold invisible characters such as a zero-width space "
                + "(it would look the same as a name without them)."
        }
        // The capture's file field reads these as a home folder or a URL, never as a name.
        if name.hasPrefix("~") { return "A photo's name cannot start with ~ (the capture would read a home folder)." }
        if name.lowercased().hasPrefix("file:") { return "A photo's name cannot start with file: (the capture would read a URL)." }
        return nil
    }

    /// True for a scalar that draws nothing yet makes a name differ from the one it looks like:
    /// a format character (zero-width space and joiners, word joiner, byte-order mark, soft
    /// hyphen…) or another default-ignorable one such as a Hangul filler. Variation selectors and
    /// other marks that change how the character before them looks are let through.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.generalCategory == .format { return true }
        return properties.isDefaultIgnorableCodePoint && properties.generalCategory != .nonspacingMark
    }

    /// Why `name` cannot be a file of this folder at all (a path, a dot file, NUL, too long), or
    /// nil. Looser than ``problem(with:)``: what `remove` takes, so an upload kept under rules
    /// older than today's can still be deleted.
    static func fileProblem(with name: String) -> String? {
        if name.isEmpty { return "A photo needs a name." }
        if name.utf8.count > maximumNameBytes { return "A photo's name can have at most \(maximumNameBytes) bytes." }
        if name.contains("/") || name == "." || name == ".." {
            return "\(Self.shown(name)) is not a name: photos come only from your uploads, by name (no folders)."
        }
        if name.hasPrefix(".") { return "A photo's name cannot start with a dot." }
        if name.utf8.contains(0) { return "A photo's name cannot hold a NUL byte." }
        return nil
    }

    /// The uploads' names, sorted: regular files only (no links, folders or dot files).
    public func names() -> [String] {
        guard isRealDirectory else { return [] }
        return (DurableFiles.entries(of: path) ?? [])
            .filter { Self.problem(with: $0) == nil && !$0.hasPrefix(DurableFiles.tempPrefix) }
            .filter { name in DurableFiles.status(path + "/" + name).map(DurableFiles.isRegularFile) == true }
            .sorted()
    }

    /// The file `typed` names, for staging: its absolute path, or a sentence saying why not.
    /// `typed` may be quoted or backslash-escaped as a paste would be; it must still be a name.
    public func resolve(_ typed: String) -> Result<String, StorageError> {
        let name = PathInput.resolve(typed, home: "/nonexistent").map { $0 } ?? ""
        if typed.trimmingCharacters(in: .whitespaces).hasPrefix("~") || typed.lowercased().hasPrefix("file:") {
            return .failure(
                .fileRefused(
                    "\(Self.shown(typed)) is not a name: photos come only from your uploads, by name (no folders)."))
        }
        if let problem = Self.problem(with: name) { return .failure(.fileRefused(problem)) }
        guard isRealDirectory, let info = DurableFiles.status(path + "/" + name) else {
            return .failure(
                .fileRefused(
                    "You have no upload named \(Self.shown(name)); add one with: ssh … photos add \(Self.shown(name)) < file"))
        }
        guard DurableFiles.isRegularFile(info) else {
            return .failure(.fileRefused("\(Self.shown(name)) is not a file."))
        }
        return .success(path + "/" + name)
    }

    /// Whether the folder exists as a directory and is not a symbolic link.
    private var isRealDirectory: Bool {
        DurableFiles.status(path).map(DurableFiles.isDirectory) == true
    }

    static func shown(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return "\u{201C}" + Sanitizer(unicode: true).line(cut) + "\u{201D}"
    }

    // MARK: - Changing

    /// Reads an image from `descriptor` (to its end) and keeps it as `name`, replacing an upload
    /// of that name. Refused, and nothing written, when the name is not one, the data is larger
    /// than `maxBytes`, the folder would go over `quota` (the upload it replaces not counted),
    /// or it is not a PNG, JPEG, GIF, WebP, BMP or HEIC image. `refusal` is asked about the
    /// received file before it is kept: a sentence refuses it (the caller's check, such as a
    /// damaged photo's, which Storage cannot decode to tell).
    @discardableResult
    public func add(
        _ name: String, from descriptor: Int32, maxBytes: Int64, quota: UploadQuota? = nil, refusal: ((URL) -> String?)? = nil
    ) throws(StorageError) -> InspectedImage {
        if let problem = Self.problem(with: name) { throw .invalidInput(problem) }
        try prepare()
        var quotaBytesLeft = Int64.max
        var quotaSentence = ""
        if let quota {
            let others = names().filter { $0 != name }
            let used = others.reduce(Int64(0)) { $0 + (byteSize(of: $1) ?? 0) }
            quotaSentence = quota.sentence(count: others.count, bytes: used)
            guard others.count < quota.count, used < quota.bytes else { throw .fileRefused(quotaSentence) }
            quotaBytesLeft = quota.bytes - used
        }
        let temp = path + "/" + DurableFiles.tempPrefix + UUID().uuidString.lowercased()
        let target = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            throw .fileSystem("Cannot create \(temp): \(DurableFiles.reason(errno: errno)).")
        }
        var header: [UInt8] = []
        var total: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: StagingSession.copyChunkSize)
        var failure: StorageError?
        while failure == nil {
            let got = buffer.withUnsafeMutableBytes { DurableFiles.readFully(descriptor, into: $0, count: $0.count) }
            if got < 0 {
                failure = .fileRefused("Cannot read the photo: \(DurableFiles.reason(errno: errno)).")
                break
            }
            if got == 0 { break }
            total += Int64(got)
            if total > maxBytes {
                failure = .fileRefused("The photo is larger than \(StagingSession.megabytes(maxBytes)); nothing was kept.")
                break
            }
            if total > quotaBytesLeft {
                failure = .fileRefused(quotaSentence)
                break
            }
            if header.count < ImageInspector.headerLength {
                header += buffer[0..<min(got, ImageInspector.headerLength - header.count)]
            }
            let written = buffer.withUnsafeBytes { DurableFiles.writeAll(target, UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            if written != 0 { failure = .fileSystem("Cannot write \(temp): \(DurableFiles.reason(errno: written)).") }
        }
        let image = failure == nil ? ImageInspector.inspect(header: header) : nil
        if failure == nil, image == nil {
            failure = .fileRefused(
                total == 0
                    ? "Nothing arrived: send the photo on standard input (photos add NAME < file)."
                    : "That is not a PNG, JPEG, GIF, WebP, BMP or HEIC image; nothing was kept.")
        }
        if failure == nil, DurableFiles.fsyncRetrying(target) != 0 {
            failure = .fileSystem("Cannot save \(temp): \(DurableFiles.reason(errno: errno)).")
        }
        DurableFiles.closeDescriptor(target)
        if failure == nil, let sentence = refusal?(URL(fileURLWithPath: temp)) {
            failure = .fileRefused(sentence)
        }
        guard failure == nil, let image else {
            _ = unlink(temp)
            throw failure ?? .fileSystem("Cannot keep the photo.")
        }
        guard rename(temp, path + "/" + name) == 0 else {
            let reason = DurableFiles.reason(errno: errno)
            _ = unlink(temp)
            throw .fileSystem("Cannot keep \(Self.shown(name)): \(reason).")
        }
        try DurableFiles.syncDirectory(path)
        return image
    }

    /// Deletes the upload `name`. Throws when there is none (a link or folder of that name is
    /// not an upload and is left alone).
    public func remove(_ name: String) throws(StorageError) {
        if let problem = Self.fileProblem(with: name) { throw .invalidInput(problem) }
        let file = path + "/" + name
        guard isRealDirectory, let info = DurableFiles.status(file), DurableFiles.isRegularFile(info) else {
            throw .invalidInput("You have no upload named \(Self.shown(name)).")
        }
        guard unlink(file) == 0 else {
            throw .fileSystem("Cannot remove \(Self.shown(name)): \(DurableFiles.reason(errno: errno)).")
        }
        try? DurableFiles.syncDirectory(path)
    }

    /// The upload `name`'s size in bytes, nil when there is none.
    public func byteSize(of name: String) -> Int64? {
        guard Self.problem(with: name) == nil, let info = DurableFiles.status(path + "/" + name),
            DurableFiles.isRegularFile(info)
        else { return nil }
        return Int64(info.st_size)
    }

    /// What the upload `name` is (format and pixel size), from its first bytes; nil when there
    /// is no such upload or it is not an image any more.
    public func inspect(_ name: String) -> InspectedImage? {
        guard Self.problem(with: name) == nil else { return nil }
        let fd = open(path + "/" + name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { DurableFiles.closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, DurableFiles.isRegularFile(info) else { return nil }
        var header = [UInt8](repeating: 0, count: ImageInspector.headerLength)
        let count = header.withUnsafeMutableBytes { DurableFiles.readFully(fd, into: $0, count: $0.count) }
        guard count > 0 else { return nil }
        return ImageInspector.inspect(header: Array(header[0..<count]))
    }

    /// Creates the folder (and missing parents) with mode 0700; refuses one that is a link.
    public func prepare() throws(StorageError) {
        if let info = DurableFiles.status(path) {
            guard DurableFiles.isDirectory(info) else {
                throw .fileSystem("\(path) is not a folder.")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreate(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Writes the demo's sample photos (the coffee beans, a shelf label) into the folder, for
    /// `serve --demo` visitors.
    public func addDemoPhotos() throws(StorageError) {
        try prepare()
        for (name, bytes) in DemoPNG.demoPictures() {
            try DurableFiles.writeAtomically(Data(bytes), to: path + "/" + name)
        }
    }
}
