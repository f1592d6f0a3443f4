import Domain
import Foundation
import GRDB
import Storage

#if canImport(Glibc)
import Glibc
#endif

extension AppDatabase {
    /// Imports the products of a delimited file read from `descriptor`, in one transaction: all
    /// or nothing. Two forms: Open Food Facts' export (a header naming `code` and `product_name`,
    /// with `brands`, `quantity` and `energy-kcal_100g` or `energy_100g` in kJ when present,
    /// any other columns ignored; tab-separated as OFF publishes it, or comma-separated), or
    /// `barcode,name[,brand,quantity]` rows with or without a header. A code already in the
    /// catalog gets the new row (upsert); rows without a code or a name are skipped and counted.
    public func importCatalog(from descriptor: Int32) throws(CatalogImportError) -> CatalogImportReport {
        var report = CatalogImportReport()
        do {
            try writer.write { db in
                let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM product") ?? 0
                let upsert = try db.makeStatement(
                    sql: """
                        INSERT INTO product (code, name, brand, quantity, energyKcal) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(code) DO UPDATE SET name = excluded.name, brand = excluded.brand,
                            quantity = excluded.quantity, energyKcal = excluded.energyKcal
                        """)
                try CatalogFile.read(descriptor, into: &report) { code, product in
                    try upsert.execute(arguments: [code, product.name, product.brand, product.quantity, product.energyKcal])
                }
                let after = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM product") ?? 0
                report.added = after - before
                report.updated = report.rows - report.skipped - report.added
            }
        } catch let error as CatalogImportError {
            throw error
        } catch {
            throw .storage(StorageError.operation(error, path: url.path).message)
        }
        return report
    }
}
