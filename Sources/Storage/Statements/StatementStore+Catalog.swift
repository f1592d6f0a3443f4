import Domain
import Foundation

/// The catalog's reads both engines share.
extension StatementStore {
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
                return try session.all(products) { row throws(StorageError) in
                    guard let code = try row.text(0), let name = try row.text(1) else { throw session.unreadable("a product") }
                    return (code, Product(name: name, brand: try row.text(2), quantity: try row.text(3), energyKcal: try row.real(4)))
                }
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
    /// The product with catalog key `key` (``Product/catalogKey(for:)``), or nil.
    public static func product(key: String, _ session: any StatementSession) throws(StorageError) -> Product? {
        try session.first("SELECT name, brand, quantity, energy_kcal FROM product WHERE code = \(key)") { row throws(StorageError) in
            guard let name = try row.text(0) else { throw session.unreadable("a product") }
            return Product(name: name, brand: try row.text(1), quantity: try row.text(2), energyKcal: try row.real(3))
        }
    }
}
