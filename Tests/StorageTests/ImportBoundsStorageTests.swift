import CaptureMode
import Domain
import Foundation
import Testing

@testable import Storage

#if canImport(Glibc)
import Glibc
#endif

/// The bounds of ImportLimits where the engines and the delimited reader keep them: a catalog row
/// whose fields hold more than any product, a row of more fields than any export, and more
/// requests or records than one import adds handed to an engine directly. Each is refused with
/// its sentence and leaves the store as it was. (The commands' side: CommandTests'
/// ImportBoundsTests; memory: scripts/bench-import.)
@Suite("Import bounds on both engines")
struct ImportBoundsStorageTests {
    static let mebibyte = 1 << 20

    static func rows(_ text: String, keeping columns: Set<Int>? = nil) throws -> [Result<[String], DelimitedReader.Failure>] {
        let fd = try CatalogTests.descriptor(text)
        defer { close(fd) }
        var reader = DelimitedReader(descriptor: fd)
        reader.keptColumns = columns
        var rows: [Result<[String], DelimitedReader.Failure>] = []
        while true {
            do throws(DelimitedReader.Failure) {
                guard let row = try reader.nextRow() else { return rows }
                rows.append(.success(row.fields))
            } catch {
                rows.append(.failure(error))
                if case .unclosedQuote = error { return rows }
            }
        }
    }

    // MARK: - The delimited reader

    @Test func aRowPastABoundIsReadToItsEndAndTheNextRowStillReads() throws {
        let long = String(repeating: "x", count: Self.mebibyte + 1)
        let wide = String(repeating: ",", count: ImportLimits.maximumFields)
        let rows = try Self.rows("1,\"\(long)\"\n2,short\n3\(wide)\n4,\r\n5,\"a\r\n\"\r\n")
        #expect(
            rows == [
                .failure(.rowTooLong(line: 1)), .success(["2", "short"]), .failure(.tooManyFields(line: 3)), .success(["4", ""]),
                .success(["5", "a\r\n"]),
            ])
    }

    @Test func aHugeFieldInAColumnNotReadIsSkippedWithoutBeingHeld() throws {
        let huge = String(repeating: "x", count: 3 * Self.mebibyte)
        let rows = try Self.rows("code\tnotes\tproduct_name\n1\t\(huge)\tPen\n", keeping: [0, 2])
        #expect(rows == [.success(["code", "", "product_name"]), .success(["1", "", "Pen"])])
    }

    // MARK: - Catalog import

    @Test(arguments: StoreEngine.allCases) func aCatalogRowHoldingMoreThanAProductIsRefusedWithItsLine(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        _ = try db.importCatalog(from: try CatalogTests.descriptor("4006381333931,Pen\n"))
        let name = String(repeating: "x", count: Self.mebibyte + 1)
        let refusal = CatalogImportError.malformed(
            line: 3, reason: "the fields read from the row hold more than 1 MiB (a product's name is at most 500 characters)")
        #expect(throws: refusal) {
            try db.importCatalog(from: try CatalogTests.descriptor("barcode,name\n4006381333931,Pen renamed\nSKU-1,\(name)\nSKU-2,Lid\n"))
        }
        #expect(refusal.message == "line 3: the fields read from the row hold more than 1 MiB (a product's name is at most 500 characters).")
        #expect(try db.product(for: Barcode(value: "4006381333931", symbology: .ean13))?.name == "Pen", "the earlier rows rolled back")
        #expect(try db.product(for: Barcode(value: "SKU-2", symbology: .freeText)) == nil)
    }

    @Test(arguments: StoreEngine.allCases) func aCatalogRowOfMoreFieldsThanAnyExportIsRefused(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let wide = String(repeating: "\t", count: ImportLimits.maximumFields)
        #expect(throws: CatalogImportError.malformed(line: 2, reason: "the row has more than 10,000 fields")) {
            try db.importCatalog(from: try CatalogTests.descriptor("code\tproduct_name\n4006381333931\tPen\(wide)\n"))
        }
        #expect(try db.product(for: Barcode(value: "4006381333931", symbology: .ean13)) == nil)
    }

    @Test(arguments: StoreEngine.allCases) func aHugeFieldOfAColumnTheCatalogDoesNotReadImports(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let ingredients = String(repeating: "x", count: 3 * Self.mebibyte)
        let report = try db.importCatalog(from: try CatalogTests.descriptor("code\tingredients_text\tproduct_name\n4006381333931\t\(ingredients)\tPen\n"))
        #expect(report.added == 1)
        #expect(try db.product(for: Barcode(value: "4006381333931", symbology: .ean13))?.name == "Pen")
    }

    // MARK: - The engines

    @Test(arguments: StoreEngine.allCases) func anEngineRefusesMoreRequestsOrRecordsThanOneImportAdds(engine: StoreEngine) throws {
        let temp = try TemporaryDirectory()
        let db = try temp.store(engine)
        let requests = Array(repeating: NewRequest(title: "t", kind: .barcode), count: ImportLimits.maximumRequests + 1)
        #expect(throws: StorageError.invalidInput(RequestImport.tooManyRequests)) {
            try db.importRequests(requests, now: Clock.now, createdBy: nil)
        }
        #expect(try db.requestListing(limit: nil).isEmpty)

        let records = Array(repeating: ImportedRecord(kind: .note, createdAt: Clock.now, note: "n"), count: ImportLimits.maximumRecords + 1)
        #expect(throws: StorageError.invalidInput(HistoryImport.tooManyRecords)) {
            try db.importHistory(ImportedHistory(records: records))
        }
        #expect(try db.storedCount() == 0)
    }
}
