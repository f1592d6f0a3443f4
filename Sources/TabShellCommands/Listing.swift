import Foundation
import TabShell

/// What a list holds, for its options' help and default.
public protocol ListedItems {
    /// "requests", "records": in the help ("Show at most this many requests").
    static var noun: String { get }
    /// How many are shown without `--limit` (0 for all).
    static var defaultLimit: Int { get }
}

/// The output of a `list` command, the same for every list: with `--json` one object holding
/// an array under `key` (`{"version":1,"requests":[…]}`), streamed an item a line; for people a
/// table laid out once every row is in, or `empty` when there is nothing.
struct Listing {
    private let json: Bool
    private let key: String
    private let empty: String
    private let output: any TextOutput
    private(set) var table: TextTable
    private(set) var count = 0

    init(json: Bool, key: String, empty: String, columns: [TextTable.Column], context: CommandContext) {
        self.json = json
        self.key = key
        self.empty = empty
        self.output = context.output
        self.table = TextTable(columns: columns, unicode: context.localeIsUTF8)
    }

    /// Adds one item: its JSON object or its table row, whichever this listing prints.
    mutating func add(json object: @autoclosure () -> String, row: @autoclosure () -> [String]) throws {
        if json {
            if count == 0 { try output.write("{\"version\":1,\"\(key)\":[") }
            try output.write((count == 0 ? "\n" : ",\n") + object())
        } else {
            table.append(row())
        }
        count += 1
    }

    /// Adds a column to the table once the rows are in (a column shown only when it says
    /// something, such as who captured what when more than one person did).
    mutating func insertColumn(_ column: TextTable.Column, at index: Int, cells: [String]) {
        guard !json else { return }
        table.insertColumn(column, at: index, cells: cells)
    }

    /// Ends the JSON object, or prints the table or the sentence for an empty list.
    func finish() throws {
        if json {
            try output.write(count == 0 ? "{\"version\":1,\"\(key)\":[]}\n" : "\n]}\n")
        } else if count == 0 {
            try output.write(empty + "\n")
        } else {
            try output.write(table.render())
        }
        try output.finish()
    }
}
