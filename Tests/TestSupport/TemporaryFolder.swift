import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh folder of one test's own, removed with everything in it when the value goes. Made
/// with `mkdtemp` under /tmp so paths stay short (a socket path or an ssh ControlPath must stay
/// under 108 bytes). Test targets add what they keep in it by subclassing (a database path, a
/// PostgreSQL scratch database).
open class TemporaryFolder: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    /// A folder named `prefix-XXXXXX`.
    public init(prefix: String = "tabshell-test") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "/tmp/\(prefix)-XXXXXX"])
        }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    /// `name` inside the folder (which need not exist yet).
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` in the folder and returns its URL.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> URL {
        let target = file(name)
        try Data(bytes).write(to: target)
        return target
    }

    /// Writes `text` (UTF-8) to `name` in the folder and returns its URL.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        try write(Array(text.utf8), to: name)
    }

    deinit {
        // Tests leave read-only folders behind; make them writable so removal succeeds.
        // Symbolic links are skipped: chmod follows them, and a test plants one to /etc
        // (UploadFolderTests), which this loop once made mode 0700 for the whole machine.
        if let paths = FileManager.default.enumerator(atPath: path) {
            for case let relative as String in paths {
                let full = path + "/" + relative
                var info = stat()
                guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK else { continue }
                _ = chmod(full, 0o700)
            }
        }
        _ = chmod(path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}
