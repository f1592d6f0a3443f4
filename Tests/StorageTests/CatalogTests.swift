import CaptureMode
import Domain
import Foundation
import Testing

@testable import Storage

#if canImport(Glibc)
import Glibc
#endif

/// The product catalog: reading delimited files as a stream, importing all
/// or nothing, matching scans to rows whatever GTIN form either side uses.
@Suite("Product catalog")
struct CatalogTests {
    /// `text` on a pipe's read end, as `catalog import -` gets standard input.
    static func descriptor(_ text: String) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let bytes = Array(text.utf8)
        // Written from another thread: a pipe holds 64 KiB, the file may be larger.
        let writer = ends[1]
        Thread.detachNewThread {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBufferPointer { write(writer, $0.baseAddress, $0.count) }
                if written <= 0 { break }
                offset += written
            }
            close(writer)
        }
        return ends[0]
    }

    static func rows(_ text: String) throws -> [[String]] {
        let fd = try descriptor(text)
        defer { close(fd) }
        var reader = DelimitedReader(descriptor: fd)
        var rows: [[String]] = []
        while let row = try reader.nextRow() { rows.append(row.fields) }
        return rows
    }

    // MARK: - Reading

    @Test func commasFollowRFC4180() throws {
        let text = "\u{FEFF}barcode,name\r\n1,\"Pen, blue\"\r\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\",x\n"
        #expect(try Self.rows(text) == [["barcode", "name"], ["1", "Pen, blue"], ["2", "say \"hi\""], ["3", "two\nlines", "x"]])
    }

    @Test func tabsKeepQuotesAsText() throws {
        let text = "code\tproduct_name\n1\t\"Kleenex\" soft, 10\n"
        #expect(try Self.rows(text) == [["code", "product_name"], ["1", "\"Kleenex\" soft, 10"]])
    }

    @Test func anOpenQuoteAtTheEndNamesItsLine() throws {
        #expect(throws: DelimitedReader.Failure.unclosedQuote(line: 3)) { try Self.rows("a,b\n1,2\n3,\"open\nstill open\n") }
    }

    @Test func fieldsLongerThanAChunkAreWhole() throws {
        let long = String(repeating: "x", count: 200_000)
        #expect(try Self.rows("1,\(long)\n2,short\n") == [["1", long], ["2", "short"]])
    }

    // MARK: - Keys

    @Test func gtinFormsMeetOnOneKey() {
        let key = "00036000291452"
        #expect(Product.catalogKey(for: "036000291452") == key, "UPC-A")
        #expect(Product.catalogKey(for: "0036000291452") == key, "the same as EAN-13")
        #expect(Product.catalogKey(for: "00036000291452") == key, "and as GTIN-14")
        #expect(Product.catalogKey(for: Barcode(value: "0036000291452", symbology: .ean13)) == key)
        #expect(Product.catalogKey(for: Barcode(value: "(01)00036000291452(10)LOT7", symbology: .gs1128)) == key, "GS1 data's (01)")
        #expect(Product.catalogKey(for: "036000291453") == "036000291453", "a wrong check digit is not a GTIN: kept as written")
        #expect(Product.catalogKey(for: " SKU-42 ") == "SKU-42")
    }

    // MARK: - Importing

    @Test(arguments: StoreEngine.allCases) func anOpenFoodFactsExportImportsWithItsFields(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let export = """
            code\tcreator\tproduct_name\tbrands\tquantity\tenergy_100g\tenergy-kcal_100g
            3017620422003\tx\tNutella\tFerrero\t400 g\t2252\t539
            036000291452\tx\tKleenex\tKimberly-Clark\t\t1000\t
            \tx\tNo code\t\t\t\t
            12345678\tx\t\t\t\t\t

            """
        let report = try db.importCatalog(from: try Self.descriptor(export))
        #expect(report.form == "Open Food Facts export")
        #expect(report.rows == 4 && report.added == 2 && report.skippedWithoutCode == 1 && report.skippedWithoutName == 1)
        let nutella = try #require(try db.product(for: Barcode(value: "3017620422003", symbology: .ean13)))
        #expect(nutella == Product(name: "Nutella", brand: "Ferrero", quantity: "400 g", energyKcal: 539))
        let kleenex = try #require(try db.product(for: Barcode(value: "0036000291452", symbology: .ean13)))
        #expect(kleenex.name == "Kleenex")
        #expect(abs((kleenex.energyKcal ?? 0) - 1000 / 4.184) < 0.001, "kJ converted when kcal is missing")
    }

    @Test(arguments: StoreEngine.allCases) func aPlainListWithOrWithoutHeaderAndAReimportReplaces(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.importCatalog(from: try Self.descriptor("4006381333931,Pen\nSKU-42,Crate,Acme,12 pcs\n"))
        let second = try db.importCatalog(from: try Self.descriptor("barcode,name,brand\n4006381333931,Pen (blue),Stabilo\n"))
        #expect(second.added == 0 && second.updated == 1)
        #expect(try db.product(for: Barcode(value: "4006381333931", symbology: .ean13)) == Product(name: "Pen (blue)", brand: "Stabilo"))
        #expect(try db.product(for: Barcode(value: "SKU-42", symbology: .freeText)) == Product(name: "Crate", brand: "Acme", quantity: "12 pcs"))
    }

    @Test(arguments: StoreEngine.allCases) func aMalformedFileImportsNothing(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.importCatalog(from: try Self.descriptor("4006381333931,Pen\n"))
        #expect(throws: CatalogImportError.malformed(line: 3, reason: "expected barcode,name[,brand,quantity], found 1 field")) {
            try db.importCatalog(from: try Self.descriptor("4006381333931,Pen renamed\nSKU-1,Box\nlonely\nSKU-2,Lid\n"))
        }
        #expect(try db.product(for: Barcode(value: "4006381333931", symbology: .ean13))?.name == "Pen", "the earlier rows rolled back")
        #expect(try db.product(for: Barcode(value: "SKU-1", symbology: .freeText)) == nil)
    }

    @Test(arguments: StoreEngine.allCases) func aRecordKeepsTheNameItWasSavedWithAndSearchFindsIt(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.importCatalog(from: try Self.descriptor("036000291452,Kleenex Ultra,Kimberly\n"))
        let code = Barcode(value: "0036000291452", symbology: .ean13)
        let id = try db.commit(CaptureSubmission(kind: .barcode, barcode: code), now: Date())
        let other = try db.commit(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13)), now: Date())
        #expect(try db.recordDetail(id: id)?.record.product == Product(name: "Kleenex Ultra", brand: "Kimberly"))
        #expect(try db.recordDetail(id: other)?.record.product == nil, "a code not in the catalog looks as before")
        #expect(try db.search("kleen", limit: 10).map(\.id) == [id], "found by the product's name")
        #expect(try db.search("kimberly", limit: 10).map(\.id) == [id], "and brand")

        #expect(try db.clearCatalog() == 1)
        #expect(try db.recordDetail(id: id)?.record.product?.name == "Kleenex Ultra", "clearing the catalog leaves records as they were saved")
        #expect(try db.recordDetail(id: id)?.record.barcode == code, "and never changes a code")
    }
}
