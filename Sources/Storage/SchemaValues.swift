import Domain

/// The value lists both engines' schemas name in their CHECK constraints, written once from the
/// Swift enums (`CaseIterable`), so SQLite's and PostgreSQL's migrations cannot spell a kind
/// differently.
///
/// A shipped migration must mean the same thing forever, so every text made from these lists is
/// pinned: StorageCoreTests (the lists, and SQLite's `sqlite_master`) and PostgreSQL's
/// CoreRulesTests (its catalog) compare a fresh schema with the text the migrations made when
/// they shipped. Adding a
/// `CaptureKind` fails those tests on purpose: then write the old list out as a literal in the
/// migrations that used it, and append a migration that widens the CHECK.
public enum SchemaValues {
    /// `'a','b','c'`: the raw values, quoted and comma-separated as SQL lists them (the values
    /// are Swift identifiers: no quote to escape).
    public static func quoted<Value: RawRepresentable>(_ values: some Sequence<Value>) -> String where Value.RawValue == String {
        values.map { "'\($0.rawValue)'" }.joined(separator: ",")
    }

    /// Every capture kind: what `capture.kind` takes (SQLite since v5, PostgreSQL since v1).
    public static var captureKinds: String { quoted(CaptureKind.allCases) }

    /// The kinds a request can ask for, every kind but batch (a batch is counted at the shelf,
    /// not asked for): `request.kind` on both engines, and `capture.kind` in SQLite's v1, before
    /// batch existed.
    public static var requestKinds: String { quoted(CaptureKind.allCases.filter { $0 != .batch }) }

    /// A newer schema's version for sentences, from the migrations this build does not know:
    /// "v5" for {"v2", "v5"}; identifiers that are not "v<number>" are listed as they are.
    public static func newestVersion(of identifiers: Set<String>) -> String {
        let numbers = identifiers.compactMap { $0.hasPrefix("v") ? Int($0.dropFirst()) : nil }
        if numbers.count == identifiers.count, let newest = numbers.max() {
            return "v\(newest)"
        }
        return identifiers.sorted().joined(separator: ", ")
    }
}
