import Domain
import Foundation

/// The product catalog, written once for both engines.
extension StatementStore {
    /// Imports the products of a delimited file read from `descriptor`, in one transaction: all
    /// or nothing. Two forms: Open Food Facts' export (a header naming `code` and `product_name`,
    /// with `brands`, `quantity` and `energy-kcal_100g` or `energy_100g` in kJ when present,
    /// any other columns ignored; tab-separated as OFF publishes it, or comma-separated), or
    /// `barcode,name[,brand,quantity]` rows with or without a header (``CatalogFile``). A code
    /// already in the catalog gets the new row (upsert, ``CatalogRows/batchSize`` rows a
    /// statement); rows without a code or a name are skipped and counted.
    public func importCatalog(from descriptor: Int32) throws(CatalogImportError) -> CatalogImportReport {
        var report = CatalogImportReport()
        // A problem of the file itself keeps its own sentence; the transaction is rolled back.
        var fileProblem: CatalogImportError?
        do throws(StorageError) {
            try writing { session throws(StorageError) in
                let before = try session.integer("SELECT count(*) FROM product") ?? 0
                // A batch holds each code once (one statement cannot update a row twice): a later
                // row of the same code replaces the earlier one, as row-by-row upserts would.
                var batch: [String: Product] = [:]
                var order: [String] = []
                func flush() throws(StorageError) {
                    try CatalogRows.upsert(order.compactMap { code in batch[code].map { (code, $0) } }, session)
                    batch = [:]
                    order = []
                }
                do {
                    try CatalogFile.read(descriptor, into: &report) { code, product in
                        if batch.updateValue(product, forKey: code) == nil { order.append(code) }
                        if order.count == CatalogRows.batchSize { try flush() }
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
                let after = try session.integer("SELECT count(*) FROM product") ?? 0
                report.added = Int(after - before)
                report.updated = report.rows - report.skipped - report.added
            }
        } catch {
            if let fileProblem { throw fileProblem }
            throw .storage(error.message)
        }
        return report
    }

    /// What the catalog calls the product with this code, if it has it.
    public func product(for barcode: Barcode) throws(StorageError) -> Product? {
        try asking { session throws(StorageError) in try CatalogRows.product(key: Product.catalogKey(for: barcode), session) }
    }

    /// The catalog for `tabshell catalog list`: by code, names or brands containing `search` (any
    /// case) when given, at most `limit` (all when nil), read a thousand products at a time.
    public func catalogListing(limit: Int?, search: String?, _ body: (String, Product) throws -> Void) throws {
        var remaining = limit.map { max($0, 0) } ?? Int.max
        var after = ""
        let pattern = search.flatMap(CatalogFile.containsPattern)
        while remaining > 0 {
            let size = min(remaining, 1000)
            let page = try asking { session throws(StorageError) in
                let (code, like) = (session.dialect.codeInByteOrder, session.dialect.caselessLike)
                let products: StoreSQL = """
                    SELECT code, name, brand, quantity, energy_kcal FROM product
                    WHERE \(code) > \(after) AND (CAST(\(pattern) AS TEXT) IS NULL
                        OR name \(like) \(pattern) ESCAPE '!' OR brand \(like) \(pattern) ESCAPE '!')
                    ORDER BY \(code) LIMIT \(size)
                    """
                return try session.all(products) { row throws(StorageError) in try CatalogRows.codeAndProduct(row, session) }
            }
            for (code, product) in page { try body(code, product) }
            guard page.count == size, let last = page.last else { break }
            after = last.0
            remaining -= page.count
        }
    }

    /// Deletes every product of the catalog; returns how many there were. Records keep the
    /// names they were committed with.
    public func clearCatalog() throws(StorageError) -> Int {
        try writing { session throws(StorageError) in try session.execute("DELETE FROM product") }
    }
}

/// The `product` table's rows.
public enum CatalogRows {
    /// How many products one upsert statement holds.
    public static let batchSize = 200

    /// `rows` in one statement, each code at most once: a code already there gets the row's
    /// name, brand, quantity and energy.
    public static func upsert(_ rows: [(String, Product)], _ session: any StatementSession) throws(StorageError) {
        guard !rows.isEmpty else { return }
        // The cast gives a column of NULLs its type (PostgreSQL would take it for text).
        let values = StoreSQL(
            list: rows.map { code, product in
                "(\(code), \(product.name), \(product.brand), \(product.quantity), CAST(\(product.energyKcal) AS DOUBLE PRECISION))"
            })
        var upsert: StoreSQL = """
            INSERT INTO product (code, name, brand, quantity, energy_kcal) VALUES \(values)
            ON CONFLICT (code) DO UPDATE SET name = excluded.name, brand = excluded.brand,
                quantity = excluded.quantity, energy_kcal = excluded.energy_kcal
            """
        upsert.isRepeated = true
        try session.execute(upsert)
    }

    /// A row of `code, name, brand, quantity, energy_kcal`: the code and its product.
    static func codeAndProduct(_ row: any SQLRow, _ session: any StatementSession) throws(StorageError) -> (String, Product) {
        guard let code = try row.text(0), let name = try row.text(1) else { throw session.unreadable("a product") }
        return (code, Product(name: name, brand: try row.text(2), quantity: try row.text(3), energyKcal: try row.real(4)))
    }

    /// The product with catalog key `key` (``Product/catalogKey(for:)``), or nil.
    public static func product(key: String, _ session: any StatementSession) throws(StorageError) -> Product? {
        try session.first("SELECT name, brand, quantity, energy_kcal FROM product WHERE code = \(key)") { row throws(StorageError) in
            guard let name = try row.text(0) else { throw session.unreadable("a product") }
            return Product(name: name, brand: try row.text(1), quantity: try row.text(2), energyKcal: try row.real(3))
        }
    }
}
