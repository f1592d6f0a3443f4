import Foundation
import NIOConcurrencyHelpers
import NIOSSH

/// The authorized keys in force, re-read when the file changes. Sessions already running are
/// untouched by a reload: it only decides the next authentications.
final class AuthorizedKeysStore: Sendable {
    let path: String

    private struct State {
        var keys: [NIOSSHPublicKey: AuthorizedKey] = [:]
        var fileSignature: [Int]?
    }

    private let state = NIOLockedValueBox(State())

    init(path: String) {
        self.path = path
    }

    func person(for key: NIOSSHPublicKey) -> AuthorizedKey? {
        state.withLockedValue { $0.keys[key] }
    }

    /// Reads the file now. On failure nobody is let in until a later read succeeds (failing
    /// closed: a vanished file revokes every key).
    @discardableResult
    func reload() -> Result<AuthorizedKeysReport, SSHServerError> {
        let signature = Self.signature(of: path)
        let text: String
        do {
            text = try Self.readText(path)
        } catch {
            state.withLockedValue { $0 = State(fileSignature: signature) }
            return .failure(.authorizedKeysUnreadable(path: path, reason: error.reason))
        }
        let (keys, problems) = AuthorizedKeysParser.parse(text)
        let byKey = Dictionary(keys.map { ($0.publicKey, $0) }, uniquingKeysWith: { first, _ in first })
        state.withLockedValue { $0 = State(keys: byKey, fileSignature: signature) }
        return .success(AuthorizedKeysReport(path: path, keys: keys, problems: problems))
    }

    /// Re-reads the file if its size, time or inode changed since the last read; nil when unchanged.
    func reloadIfChanged() -> Result<AuthorizedKeysReport, SSHServerError>? {
        let current = Self.signature(of: path)
        let known = state.withLockedValue { $0.fileSignature }
        guard current != known else { return nil }
        return reload()
    }

    /// What identifies a version of the file cheaply, a stat and no read: its device, inode,
    /// size and modification time.
    private static func signature(of path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(truncatingIfNeeded: info.st_dev), Int(truncatingIfNeeded: info.st_ino), info.st_size, info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
    }

    /// The largest file read: OpenSSH's own are a few KiB, and 4,000 keys of 4 KiB fit.
    static let maximumBytes = 16 << 20

    private struct Unreadable: Error {
        let reason: String
    }

    /// The file's text, read at most one byte past ``maximumBytes``.
    private static func readText(_ path: String) throws(Unreadable) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw Unreadable(reason: errno == ENOENT ? "there is no such file" : String(cString: strerror(errno)).lowercased())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw Unreadable(reason: "it is not a regular file")
        }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= maximumBytes {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Unreadable(reason: String(cString: strerror(errno)).lowercased()) }
            if count == 0 { break }
            data += buffer[..<count]
        }
        guard data.count <= maximumBytes else { throw Unreadable(reason: "it is larger than \(maximumBytes >> 20) MiB") }
        guard let text = String(validating: data, as: UTF8.self) else { throw Unreadable(reason: "it is not UTF-8 text") }
        return text
    }
}
