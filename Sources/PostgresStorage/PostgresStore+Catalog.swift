import Domain
import Foundation
import PostgresNIO
import Storage

/// The product catalog on PostgreSQL: the same file forms as SQLite's (`CatalogFile`), upserted
/// a few hundred rows per statement in one transaction.
extension PostgresStore {
    public func importCatalog(from descriptor: Int32) throws(CatalogImportError) -> CatalogImportReport {
        var report = CatalogImportReport()
        // A problem of the file itself keeps its own sentence; the transaction is rolled back.
        var fileProblem: CatalogImportError?
        do throws(StorageError) {
            try pool.transaction { session throws(StorageError) in
                let before = try session.value("SELECT count(*) FROM product", as: Int.self) ?? 0
                // A batch holds each code once (one statement cannot update a row twice): a later
                // row of the same code replaces the earlier one, as row-by-row upserts would.
                var batch: [String: Product] = [:]
                var order: [String] = []
                func flush() throws(StorageError) {
                    try Self.upsert(order.compactMap { code in batch[code].map { (code, $0) } }, session)
                    batch = [:]
                    order = []
                }
                do {
                    try CatalogFile.read(descriptor, into: &report) { code, product in
                        if batch.updateValue(product, forKey: code) == nil { order.append(code) }
                        if order.count == 200 { try flush() }
                    }
                } catch let error as StorageError {
                    throw error
                } catch let error as CatalogImportError {
                    fileProblem = error
                    throw .cancelled
                } catch {
                    throw .sql("\(error)")
                }
                try flush()
                let after = try session.value("SELECT count(*) FROM product", as: Int.self) ?? 0
                report.added = after - before
                report.updated = report.rows - report.skipped - report.added
            }
        } catch {
            if let fileProblem { throw fileProblem }
            throw .storage(error.message)
        }
        return report
    }

    /// Up to a few hundred catalog rows in one statement, each code at most once.
    static func upsert(_ rows: [(String, Product)], _ session: PostgresSession) throws(StorageError) {
        guard !rows.isEmpty else { return }
        var bindings = PostgresBindings()
        var values: [String] = []
        for (code, product) in rows {
            let first = bindings.count + 1
            bindings.append(code)
            bindings.append(product.name)
            bindings.append(product.brand)
            bindings.append(product.quantity)
            bindings.append(product.energyKcal)
            // sql-fragment: placeholders only
            values.append("($\(first), $\(first + 1), $\(first + 2), $\(first + 3), $\(first + 4)::double precision)")
        }
        let rowsOfPlaceholders = values.joined(separator: ", ")  // sql-fragment: placeholders only
        try session.execute(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO product (code, name, brand, quantity, energy_kcal) VALUES \(rowsOfPlaceholders)
                    ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, brand = EXCLUDED.brand,
                        quantity = EXCLUDED.quantity, energy_kcal = EXCLUDED.energy_kcal
                    """, binds: bindings))
    }
}
