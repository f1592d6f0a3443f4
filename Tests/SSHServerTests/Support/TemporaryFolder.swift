import Foundation

/// A fresh folder under /tmp, removed when the value is released. Short paths: an ssh
/// ControlPath or a socket path must stay under 108 bytes.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        let template = "/tmp/sshtest-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: made)
    }

    func file(_ name: String) -> String {
        path + "/" + name
    }

    func write(_ text: String, to name: String) throws {
        try text.write(toFile: file(name), atomically: false, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
