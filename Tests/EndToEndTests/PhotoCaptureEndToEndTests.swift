import CaptureMode
import Domain
import Foundation
import TabShell
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// Photos and Product captures through the real binary, with real image files on disk.
@Suite(.serialized, .tags(.e2e))
struct PhotoCaptureEndToEndTests {
    /// A valid PNG of the given size (one red row repeated), built byte by byte.
    static func png(width: Int, height: Int) -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(body.count) + typed + be32(Int(crc32(typed)))
        }
        var raw: [UInt8] = []
        for _ in 0..<height { raw += [0] + Array(repeating: [255, 0, 0], count: width).flatMap { $0 } }
        // A stored (uncompressed) deflate stream is a valid zlib body for small images.
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let block = Array(raw[offset..<min(raw.count, offset + 65535)])
            offset += block.count
            let final: UInt8 = offset >= raw.count ? 1 : 0
            zlib += [final, UInt8(block.count & 0xff), UInt8(block.count >> 8), UInt8(~block.count & 0xff), UInt8((~block.count >> 8) & 0xff)] + block
        } while offset < raw.count
        zlib += be32(Int(adler32(raw)))
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func stagingEntries(_ session: TmuxSession) -> [String] {
        let staging = session.workDirectory.appendingPathComponent("data/tabshell/tabshell.sqlite.files/staging")
        return (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
    }

    @Test func productWithTwoPNGsReachesHistoryDetail() throws {
        let s = try TabShellEndToEndTests.launch()
        try Self.png(width: 64, height: 48).write(to: s.workDirectory.appendingPathComponent("shelf front.png"))
        try Self.png(width: 320, height: 200).write(to: s.workDirectory.appendingPathComponent("label.png"))
        try "just text".write(to: s.workDirectory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "r")
        try s.waitFor(text: "Capture · Product")
        try s.type("5901234123457")
        try s.press("Enter")
        try s.waitFor(text: "Photos (0 of")
        try s.type("notes.txt")
        try s.press("Enter")
        try s.waitFor(text: "not a PNG")
        try s.press("C-u")
        for _ in 0..<9 { try s.press("BSpace") }
        try s.type("shelf")
        try s.press("Tab")
        try s.waitFor(text: "shelf\\ front.png")
        try s.press("Enter")
        try s.waitFor(text: "64×48")
        try s.paste("'" + s.workDirectory.appendingPathComponent("label.png").path + "'")
        try s.waitFor(text: "320×200")
        try s.press("C-d")
        try s.waitFor(text: "Saved product")
        try s.press("3")
        try s.waitFor(text: "5901234123457")
        try s.press("Enter")
        let detail = try s.waitFor(text: "label.png")
        #expect(detail.contains("shelf front.png"))
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)

        let db = try TabShellEndToEndTests.database(in: s)
        let row = try #require(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first)
        let photos = try db.photos(forRecord: row.id)
        #expect(photos.map(\.originalName) == ["shelf front.png", "label.png"])
        #expect(photos.map(\.pixelWidth) == [64, 320])
        for photo in photos { #expect(FileManager.default.fileExists(atPath: db.media.url(forStoredName: photo.storedName).path)) }
        #expect(Self.stagingEntries(s).isEmpty, "Done leaves no staging folder")
    }

    @Test func closeWithStagedPhotosAsksThenLeavesNothing() throws {
        let s = try TabShellEndToEndTests.launch()
        try Self.png(width: 10, height: 10).write(to: s.workDirectory.appendingPathComponent("a.png"))
        try s.waitFor(text: "[ Inbox")
        try s.press("3")
        try s.waitFor(text: "[ History")
        try s.press("2", "p")
        try s.waitFor(text: "Capture · Photos")
        try s.type("a.png")
        try s.press("Enter")
        try s.waitFor(text: "10×10")
        #expect(Self.stagingEntries(s).count == 1, "the photo is on disk at once, in this capture's staging folder")
        try s.press("Escape")
        try s.waitFor(text: "Discard this capture?")
        try s.press("n")
        try s.waitForGone(text: "Discard this capture?")
        try s.press("Escape")
        try s.waitFor(text: "Discard this capture?")
        try s.press("y")
        try s.waitFor(text: "[ History")
        #expect(Self.stagingEntries(s).isEmpty, "Close deletes the staging folder")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        #expect(try TabShellEndToEndTests.database(in: s).historyCount() == 0)
    }

    @Test func killDuringCaptureThenRestartOffersTheDraft() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-e2e-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try Self.png(width: 12, height: 34).write(to: s.workDirectory.appendingPathComponent("p.png"))
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "r")
        try s.waitFor(text: "Capture · Product")
        try s.type("4006381333931")
        try s.press("Enter")
        try s.waitFor(text: "Photos (0 of")
        try s.type("p.png")
        try s.press("Enter")
        try s.waitFor(text: "12×34")
        kill(try TabShellEndToEndTests.appPID(s), SIGKILL)
        try s.waitFor(text: "[app exit")

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try t.waitFor(text: "Resume the unfinished capture?")
        try t.waitFor(text: "4006381333931")
        try t.press("r")
        let resumed = try t.waitFor(text: "12×34")
        #expect(resumed.contains("Capture · Product"))
        try t.press("C-d")
        try t.waitFor(text: "Saved product")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)

        let db = try AppDatabase.open(at: dataHome.appendingPathComponent("tabshell/tabshell.sqlite"))
        let row = try #require(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first)
        #expect(row.barcode?.value == "4006381333931")
        #expect(try db.photos(forRecord: row.id).count == 1)
        let staging = dataHome.appendingPathComponent("tabshell/tabshell.sqlite.files/staging")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)
    }

    /// The journey that lost its request: a Product from an Inbox request, the barcode skipped,
    /// a photo added first, the app killed. The draft still is a product for that request.
    @Test func aKilledProductForARequestResumesAndAnswersIt() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-e2e-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let dbURL = dataHome.appendingPathComponent("tabshell/tabshell.sqlite")
        try FileManager.default.createDirectory(at: dbURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let seeded = try AppDatabase.open(at: dbURL)
        let requestID = try seeded.addRequest(title: "Shelf 9 facings", kind: .product, now: Date())
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try Self.png(width: 12, height: 34).write(to: s.workDirectory.appendingPathComponent("p.png"))
        try s.waitFor(text: "Shelf 9 facings")
        try s.press("Enter")
        try s.waitFor(text: "Capture · Product")
        try s.press("C-s")
        try s.waitFor(text: "Photos (0 of")
        try s.type("p.png")
        try s.press("Enter")
        try s.waitFor(text: "12×34")
        kill(try TabShellEndToEndTests.appPID(s), SIGKILL)
        try s.waitFor(text: "[app exit")

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        let offer = try t.waitFor(text: "Resume the unfinished capture?")
        #expect(offer.contains("product capture"), "\(offer)")
        #expect(offer.contains("Shelf 9"), "\(offer)")
        try t.press("r")
        let resumed = try t.waitFor(text: "12×34")
        #expect(resumed.contains("Capture · Product"))
        try t.press("C-d")
        try t.waitFor(text: "Saved product")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)

        let db = try AppDatabase.open(at: dbURL)
        let row = try #require(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first)
        #expect(row.kind == .product)
        #expect(row.requestID == requestID)
        #expect(try db.inbox().pendingCount == 0)
    }

    @Test func aDiscardedDraftLeavesNothing() throws {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-e2e-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        let s = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.type("96385074")
        try s.press("Enter")
        try s.waitFor(text: "96385074 · EAN-8")
        kill(try TabShellEndToEndTests.appPID(s), SIGHUP)
        try TabShellEndToEndTests.expectTerminalRestored(s)

        let t = try TabShellEndToEndTests.launch(environment: ["XDG_DATA_HOME": dataHome.path])
        try t.waitFor(text: "Resume the unfinished capture?")
        try t.press("d")
        try t.waitForGone(text: "Resume the unfinished capture?")
        try t.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(t)
        let staging = dataHome.appendingPathComponent("tabshell/tabshell.sqlite.files/staging")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)
        #expect(try AppDatabase.open(at: dataHome.appendingPathComponent("tabshell/tabshell.sqlite")).historyCount() == 0)
    }
}
