import Foundation

/// A fresh folder per test, removed when the value goes away.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("photo-codes-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func write(_ bytes: [UInt8], to name: String) throws -> URL {
        let target = file(name)
        try Data(bytes).write(to: target)
        return target
    }
}
