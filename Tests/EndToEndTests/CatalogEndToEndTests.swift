import Domain
import Foundation
import TestSupport
import Testing

/// Product names on scan (seed 003's lookup) on the real binary: a catalog
/// imported from a shell, a code typed like a scanner, the name on every screen that shows the
/// record, and search by name.
@Suite(.serialized, .tags(.e2e)) struct CatalogEndToEndTests {
    @Test func aScannedCodeIsNamedFromTheCatalogEverywhere() throws {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared) }
        let db = shared.appendingPathComponent("shop.sqlite").path
        let catalog = shared.appendingPathComponent("products.tsv")
        // Open Food Facts' form, with the product as UPC-A: the scan below is its EAN-13 form.
        try "code\tproduct_name\tbrands\tquantity\n036000291452\tKleenex Ultra Soft\tKimberly-Clark\t70 tissues\n"
            .write(to: catalog, atomically: true, encoding: .utf8)
        let imported = try TmuxSession.spawnAndWait(
            [TmuxSession.binary.path, "catalog", "import", catalog.path, "--db", db], stdout: shared.appendingPathComponent("import.out").path)
        #expect(imported == 0)

        let app = try TabShellEndToEndTests.launch("--db \(TmuxSession.quote(db))")
        try app.waitFor(text: "[ Inbox")
        try app.press("2")
        try app.waitFor(text: "Barcode")
        try app.press("b")
        try app.waitFor(text: "EAN-13")
        try app.type("0036000291452")
        try app.press("Enter")
        let toast = try app.waitFor(text: "Kleenex Ultra Soft")
        #expect(toast.contains("Kimberly-Clark"), "the toast names the product and its brand")
        let review = try app.waitFor("the review") { $0.contains("Product") && $0.contains("Kleenex Ultra Soft") && $0.contains("Done") }
        #expect(review.contains("70 tissues"))
        try app.press("C-d")
        try app.waitFor(text: "Saved barcode (Kleenex Ultra Soft")
        try app.press("3")
        let history = try app.waitFor(text: "[ History")
        #expect(history.contains("Kleenex Ultra Soft"), "History's list names it")
        try app.press("Enter")
        let detail = try app.waitFor(text: "Product")
        #expect(detail.contains("Kleenex Ultra Soft") && detail.contains("0036000291452"), "the detail has the name and the code as scanned")
        try app.press("Escape")
        try app.press("/")
        try app.type("kleen")
        let found = try app.waitFor(text: "1 record matches")
        #expect(found.contains("Kleenex"))
        try app.press("Escape")
        try app.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(app)
    }
}
