import Domain
import PostgresNIO

extension PostgresQueries {
    /// Inserts a batch's lines, in scan order, as one statement: the search index's trigger on
    /// `capture_line` runs once a statement, so the record is indexed again once with every code,
    /// not once a line (a batch of 1,000 codes read its lines 500,000 times). Nil for no lines.
    static func insertLines(_ lines: [BatchLine], captureID: Int64) -> PostgresQuery? {
        guard !lines.isEmpty else { return nil }
        let barcodes = lines.map(\.barcode.value)
        let symbologies = lines.map(\.barcode.symbology.rawValue)
        let quantities = lines.map { Int32(clamping: $0.quantity) }
        let query: PostgresQuery = """
            INSERT INTO capture_line (capture_id, position, barcode, symbology, quantity)
            SELECT \(captureID), (line.position - 1)::integer, line.barcode, line.symbology, line.quantity
            FROM unnest(\(barcodes)::text[], \(symbologies)::text[], \(quantities)::integer[])
                WITH ORDINALITY AS line (barcode, symbology, quantity, position)
            """
        return query
    }
}
