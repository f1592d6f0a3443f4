@testable import Storage

/// The tables of ``SearchText`` as PostgreSQL's migration spells them, for the test that
/// compares the two (MigrationTests).
extension SearchText {
    /// ``markRanges`` as a bracket expression of PostgreSQL's regular expressions.
    static var postgresMarkClass: String { postgresClass(markRanges) }

    /// ``unspacedRanges`` as a bracket expression of PostgreSQL's regular expressions.
    static var postgresUnspacedClass: String { postgresClass(unspacedRanges) }

    private static func postgresClass(_ ranges: [ClosedRange<UInt32>]) -> String {
        func escape(_ value: UInt32) -> String {
            let hex = String(value, radix: 16)
            return value > 0xFFFF
                ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        let parts = ranges.map { range in
            range.lowerBound == range.upperBound ? escape(range.lowerBound) : escape(range.lowerBound) + "-" + escape(range.upperBound)
        }
        return "[" + parts.joined() + "]"
    }
}
