import CaptureMode
import Foundation
import Storage
import TabShell
import Testing

/// What real scanners send, typed into the real binary at scanner speed (tmux types a whole
/// string in one burst): GS1 data with the FNC1 byte 0x1D and an AIM prefix, and an
/// AIM-prefixed EAN.
@Suite(.serialized)
struct ScannerEndToEndTests {
    @Test func aGS1ScanWithGroupSeparatorsIsReadIntoItsFieldsAndFoundByLot() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "EAN-13")
        try s.type("]C1" + "0109506000134352" + "17201225" + "10ABC123" + "\u{1D}" + "21XYZ9" + "\r")
        let toast = try s.waitFor(text: "lot ABC123")
        #expect(toast.contains("GTIN 09506000134352"), "\(toast)")
        #expect(toast.contains("GS1-128"), "\(toast)")
        try s.waitFor(text: "Expiry")  // review lists the fields
        let review = try s.screen()
        #expect(review.contains("2020-12-25"), "\(review)")
        #expect(review.contains("XYZ9"), "\(review)")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("/")
        try s.waitFor(text: "Type to find")
        try s.type("ABC123")
        try s.waitFor(text: "(01)09506000134352")
        try s.press("Escape")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        let db = try TabShellEndToEndTests.database(in: s)
        let row = try #require(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first)
        #expect(row.barcode == Barcode(value: "(01)09506000134352(17)201225(10)ABC123(21)XYZ9", symbology: .gs1_128))
    }

    @Test func anAIMPrefixedEANIsStrippedAndKeptAsItsSymbology() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "EAN-13")
        try s.type("]E04006381333931\r")
        try s.waitFor(text: "4006381333931  EAN-13")  // review: the code without its prefix
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        let db = try TabShellEndToEndTests.database(in: s)
        let row = try #require(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first)
        #expect(row.barcode == Barcode(value: "4006381333931", symbology: .ean13))
    }

    @Test func aMalformedGS1StringNamesTheAIAndKeepsTheInput() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "b")
        try s.waitFor(text: "EAN-13")
        try s.type("(01)09506000134352(17)201232\r")
        let screen = try s.waitFor(text: "day 32")
        #expect(screen.contains("201232"), "the input is kept:\n\(screen)")
        #expect(screen.contains("(17)"), "\(screen)")
        try s.press("Escape")
        try s.waitFor(text: "Discard this capture?")
        try s.press("y")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }
}

/// A stock-take: 500 scans at scanner speed into a batch capture, nothing lost.
@Suite(.serialized)
struct BatchEndToEndTests {
    static let codes = ["4006381333931", "96385074", "036000291452", "]E04006381333931", "9780306406157", "10012345678902", "]C10109506000134352"]

    @Test func fiveHundredScansAtScannerSpeedAreAllCounted() throws {
        let s = try TabShellEndToEndTests.launch()
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "s")
        try s.waitFor(text: "No scans yet")
        let start = Date()
        for index in 0..<500 {
            // Each scan is one burst ending in Enter, like a keyboard-wedge scanner's.
            try s.type(Self.codes[index % Self.codes.count] + "\r")
            Thread.sleep(forTimeInterval: 0.02)
        }
        let typed = Date().timeIntervalSince(start)
        let screen = try s.waitFor(text: "500 scans", timeout: 20)
        // ]E04006381333931 is the same EAN-13 as the first code; ]C1(01)… is GS1: 6 codes.
        #expect(screen.contains("6 codes"), "\(screen)")
        try s.press("BSpace")
        try s.waitFor(text: "499 scans")
        try s.press("C-d")
        try s.waitFor(text: "[ Inbox")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        let db = try TabShellEndToEndTests.database(in: s)
        let row = try #require(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).rows.first)
        #expect(row.kind == .batch)
        #expect(row.batchScans == 499)
        #expect(row.batchCodes == 6)
        print("batch: 500 scans typed in \(String(format: "%.1f", typed)) s, all counted")
    }
}
