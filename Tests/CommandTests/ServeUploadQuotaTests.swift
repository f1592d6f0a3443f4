import Foundation
import Logging
import SSHServer
import Testing

@testable import ServePolicy
@testable import Storage
@testable import TabShellCommands

/// `photos add` under `tabshell serve`: one visitor's uploads are bounded in count
/// and bytes — across all the data sets of its address in demo mode — one at a time, said in
/// one sentence when full, nothing kept.
@Suite struct ServeUploadQuotaTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "uploads-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// A PNG of `size` bytes (a real header, then padding), as a descriptor to read.
    static func png(_ size: Int, in folder: String) throws -> Int32 {
        let sample = try #require(DemoPNG.demoPictures().first?.bytes)
        let path = folder + "/input-\(UUID().uuidString.prefix(8))"
        try Data(sample + [UInt8](repeating: 0, count: max(0, size - sample.count))).write(to: URL(fileURLWithPath: path))
        return open(path, O_RDONLY)
    }

    @Test func aFullFolderRefusesTheNextPhotoInOneSentenceAndKeepsNothing() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let uploads = UploadFolder(path: base + "/uploads")
        let quota = UploadQuota(count: 2, bytes: 100_000)

        for name in ["a.png", "b.png"] {
            let input = try Self.png(30_000, in: base)
            defer { close(input) }
            try uploads.add(name, from: input, maxBytes: 1 << 20, quota: quota)
        }
        // The worst: a third photo, then one that would fill the bytes mid-stream.
        let third = try Self.png(100, in: base)
        defer { close(third) }
        do throws(StorageError) {
            try uploads.add("c.png", from: third, maxBytes: 1 << 20, quota: quota)
            Issue.record("a third photo was kept")
        } catch {
            #expect(
                error.message
                    == "Your uploads are full: they may hold 2 photos and 0.1 MB in all, and hold 2 using 0.1 MB; nothing was kept (make room with: photos remove NAME).")
        }
        // Replacing one is not one more; but it may not take more than the bytes left.
        let bigger = try Self.png(80_000, in: base)
        defer { close(bigger) }
        #expect(throws: StorageError.self) { try uploads.add("b.png", from: bigger, maxBytes: 1 << 20, quota: quota) }
        let same = try Self.png(60_000, in: base)
        defer { close(same) }
        try uploads.add("b.png", from: same, maxBytes: 1 << 20, quota: quota)

        #expect(uploads.names() == ["a.png", "b.png"])
        #expect(uploads.byteSize(of: "b.png") == 60_000)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? []
        #expect(left.sorted() == ["a.png", "b.png"], "no temporary file is left")
    }

    @Test func theServerHandsPhotosAddWhatIsLeftOfTheVisitorsQuotaAcrossItsConnections() throws {
        let sets = try DemoDataSets.serving()
        defer { sets.removeAll() }
        let launcher = ServeLauncher(
            executable: "/opt/tabshell", data: .demo(sets), resumeWindowSeconds: 0, logLevel: .info, logger: ServeTests.quiet,
            uploadQuota: UploadQuota(count: 5, bytes: 10_000))
        func request(connection: Int, source: String) -> SSHSessionRequest {
            SSHSessionRequest(
                peer: SSHPeer(
                    name: "visitor", keyFingerprint: nil, loginName: "visitor", remoteAddress: "\(source):1", connectionID: connection,
                    source: source),
                pseudoTerminal: nil, command: "photos add x.png")
        }
        // Connection 1 of the address runs the app (which keeps its data set) and uploads two
        // photos (7,000 bytes).
        var app = request(connection: 1, source: "192.0.2.1")
        app = SSHSessionRequest(peer: app.peer, pseudoTerminal: SSHPseudoTerminal(term: "xterm", columns: 80, rows: 24), command: nil)
        guard case .run(let held) = launcher.decide(app) else {
            Issue.record("refused")
            return
        }
        defer { held.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false)) }
        guard case .run(let first) = launcher.decide(request(connection: 1, source: "192.0.2.1")) else {
            Issue.record("refused")
            return
        }
        #expect(first.arguments.contains("--upload-quota-count") && first.arguments.contains("5"))
        // One at a time: a second add of the same visitor while the first runs is refused.
        guard case .refuse(let busy, _) = launcher.decide(request(connection: 2, source: "192.0.2.1")) else {
            Issue.record("two at once")
            return
        }
        #expect(busy == "another photos add of yours is still running; send one photo at a time.")
        let uploads = try #require(first.arguments.firstIndex(of: "--session-folder").map { first.arguments[$0 + 1] } ?? nil)
        for (name, size) in [("p.png", 3000), ("q.png", 4000)] {
            _ = FileManager.default.createFile(atPath: uploads + "/uploads/" + name, contents: Data(count: size))
        }
        first.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))

        // Connection 2 of the same address gets only what is left; another address all of it.
        guard case .run(let second) = launcher.decide(request(connection: 2, source: "192.0.2.1")) else {
            Issue.record("refused")
            return
        }
        let arguments = second.arguments.joined(separator: " ")
        #expect(arguments.contains("--upload-quota-count 3 --upload-quota-bytes 3000"), "\(arguments)")
        second.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))
        guard case .run(let other) = launcher.decide(request(connection: 3, source: "192.0.2.2")) else {
            Issue.record("refused")
            return
        }
        #expect(other.arguments.joined(separator: " ").contains("--upload-quota-count 5 --upload-quota-bytes 10000"))
        other.onExit?(SSHSessionEnd(termination: .exited(status: 0), wasHungUp: false))

        // Full across connections: one sentence, nothing run.
        _ = FileManager.default.createFile(atPath: uploads + "/uploads/r.png", contents: Data(count: 3000))
        guard case .refuse(let full, _) = launcher.decide(request(connection: 4, source: "192.0.2.1")) else {
            Issue.record("not refused when full")
            return
        }
        #expect(full.hasPrefix("Your uploads are full: they may hold 5 photos"))
        // The app's own parser takes the server's quota options.
        let parsed = try PhotosAdd.parse(["--upload-quota-count", "3", "--upload-quota-bytes", "3000", "x.png"])
        #expect(parsed.quota == UploadQuota(count: 3, bytes: 3000))
    }
}
