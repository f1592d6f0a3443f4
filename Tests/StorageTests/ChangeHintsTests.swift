import CaptureMode
import Foundation
import SQLiteStorage
import TestSupport
import Testing

@testable import Storage

/// The kernel's news of a commit made elsewhere (inotify on the database's folder), and the
/// reading of its events.
@Suite struct ChangeHintsTests {
    @Test func anotherConnectionsCommitIsHinted() throws {
        let folder = try TemporaryFolder(prefix: "ChangeHints")
        let file = folder.file("tabshell.sqlite")
        let store = try AppDatabase.open(at: file)
        let heard = DispatchSemaphore(value: 0)
        let hints = try #require(store.changeHints { heard.signal() })
        defer { hints.stop() }
        let other = try AppDatabase.open(at: file)
        _ = try other.addRequest(title: "From elsewhere", body: "", kind: .barcode, now: Date(), createdBy: nil, requester: nil)
        #expect(heard.wait(timeout: .now() + 30) == .success, "no hint within 30 s of a commit")
        hints.stop()
        hints.stop()
    }

    @Test func eventNamesAreReadFromTheKernelsRecords() {
        func event(_ name: String, padded: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 12)
            let length = UInt32(padded)
            bytes += withUnsafeBytes(of: length.littleEndian, Array.init)
            var name = Array(name.utf8)
            name += [UInt8](repeating: 0, count: padded - name.count)
            return bytes + name
        }
        let bytes = event("tabshell.sqlite-wal", padded: 32) + event("", padded: 0) + event("x", padded: 16)
        #expect(FileChangeHints.names(in: bytes[...]) == ["tabshell.sqlite-wal", "x"])
        // A record cut short is not read past its end.
        #expect(FileChangeHints.names(in: bytes[..<20]).isEmpty)
    }
}
