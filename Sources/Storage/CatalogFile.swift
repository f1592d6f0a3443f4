import Domain
import Foundation

/// What `tabshell catalog import` did.
public struct CatalogImportReport: Equatable, Sendable {
    /// Data rows read (the header not counted).
    public var rows = 0
    public var added = 0
    /// Rows whose code was already in the catalog (or earlier in the file): their product replaced.
    public var updated = 0
    public var skippedWithoutCode = 0
    public var skippedWithoutName = 0
    /// Codes over 64 or names over 500 characters.
    public var skippedTooLong = 0
    /// "Open Food Facts export" or "barcode,name list".
    public var form = ""

    public var skipped: Int { skippedWithoutCode + skippedWithoutName + skippedTooLong }
}

/// Why a catalog file was not imported (nothing of it was).
public enum CatalogImportError: Error, Equatable, Sendable {
    case malformed(line: Int, reason: String)
    case unreadable(String)
    case storage(String)

    public var message: String {
        switch self {
        case let .malformed(line, reason): "line \(line): \(reason)."
        case let .unreadable(reason): "the file cannot be read: \(reason)."
        case let .storage(message): message
        }
    }
}

/// A catalog file's rows, whatever the engine they go into: its form found from the first row,
/// each product handed to `upsert` by its catalog key, rows without a code or name (or too long)
/// skipped and counted in `report`. Streamed: memory does not grow with the file, whatever its
/// rows hold (``DelimitedReader``'s bounds: a row's kept fields at most
/// ``ImportLimits/maximumEntryBytes``, at most ``ImportLimits/maximumFields`` fields).
public enum CatalogFile {
    /// A LIKE pattern (escape `!`) matching names that contain `search` as it is typed: LIKE's own
    /// `%` and `_` (and the escape) escaped. Nil for an empty search.
    public static func containsPattern(_ search: String) -> String? {
        guard !search.isEmpty else { return nil }
        let escaped = search.replacingOccurrences(of: "!", with: "!!").replacingOccurrences(of: "%", with: "!%")
            .replacingOccurrences(of: "_", with: "!_")
        return "%" + escaped + "%"
    }

    public static func read(
        _ descriptor: Int32, into report: inout CatalogImportReport, upsert: (String, Product) throws -> Void
    ) throws {
        var reader = DelimitedReader(descriptor: descriptor)
        var columns: CatalogColumns?
        do {
            while let (line, fields) = try reader.nextRow() {
                if columns == nil {
                    let found = try CatalogColumns(header: fields, line: line)
                    columns = found
                    report.form = found.form
                    reader.keptColumns = found.kept
                    if found.headerIsData == false { continue }
                }
                guard let columns else { continue }
                if fields.count == 1, fields[0].isEmpty { continue }  // a blank line
                report.rows += 1
                guard let row = try columns.product(from: fields, line: line) else {
                    report.skippedWithoutCode += 1
                    continue
                }
                let (code, product) = row
                guard let product else {
                    report.skippedWithoutName += 1
                    continue
                }
                guard code.count <= 64, product.name.count <= 500 else {
                    report.skippedTooLong += 1
                    continue
                }
                try upsert(code, product)
            }
        } catch let error as DelimitedReader.Failure {
            switch error {
            case let .unclosedQuote(line): throw CatalogImportError.malformed(line: line, reason: "a quoted field is not closed before the end of the file")
            case let .unreadable(reason): throw CatalogImportError.unreadable(reason)
            case let .rowTooLong(line):
                throw CatalogImportError.malformed(
                    line: line,
                    reason: "the fields read from the row hold more than \(ImportLimits.mebibytes(ImportLimits.maximumEntryBytes)) "
                        + "(a product's name is at most 500 characters)")
            case let .tooManyFields(line):
                throw CatalogImportError.malformed(line: line, reason: "the row has more than \(Count.grouped(ImportLimits.maximumFields)) fields")
            case let .notUTF8(line): throw CatalogImportError.malformed(line: line, reason: "the row is not UTF-8 text")
            }
        }
    }
}

/// Where a catalog file keeps each field, from its first row.
struct CatalogColumns {
    var code: Int
    var name: Int
    var brand: Int?
    var quantity: Int?
    var kcal: Int?
    var kilojoules: Int?
    /// False when the first row is a header (skipped); true for a headerless list.
    var headerIsData: Bool
    var form: String

    var kept: Set<Int> { Set([code, name] + [brand, quantity, kcal, kilojoules].compactMap { $0 }) }
}

extension CatalogColumns {
    init(header fields: [String], line: Int) throws(CatalogImportError) {
        let names = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let code = names.firstIndex(of: "code") {
            guard let name = names.firstIndex(of: "product_name") else {
                throw .malformed(line: line, reason: "the header names \"code\" but no \"product_name\" column")
            }
            self.init(
                code: code, name: name, brand: names.firstIndex(of: "brands"), quantity: names.firstIndex(of: "quantity"),
                kcal: names.firstIndex(of: "energy-kcal_100g"), kilojoules: names.firstIndex(of: "energy_100g"),
                headerIsData: false, form: "Open Food Facts export")
            return
        }
        guard names.count >= 2 else {
            throw .malformed(line: line, reason: "expected barcode,name[,brand,quantity] or an Open Food Facts header")
        }
        // A plain list: barcode, name, then brand and quantity when a row has them.
        let isHeader = ["barcode", "ean", "gtin", "upc"].contains(names[0]) && ["name", "product", "product_name"].contains(names[1])
        self.init(
            code: 0, name: 1, brand: 2, quantity: 3, kcal: nil, kilojoules: nil, headerIsData: !isHeader, form: "barcode,name list")
    }

    /// The row's catalog key and product (nil when it has no name); nil when it has no code.
    func product(from fields: [String], line: Int) throws(CatalogImportError) -> (String, Product?)? {
        if form == "barcode,name list", fields.count < 2 {
            throw .malformed(line: line, reason: "expected barcode,name[,brand,quantity], found \(fields.count) field")
        }
        func field(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let text = fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
        guard let code = field(code) else { return nil }
        guard let name = field(name) else { return (Product.catalogKey(for: code), nil) }
        var energy = field(kcal).flatMap(Double.init)
        if energy == nil, let kilojoules = field(kilojoules).flatMap(Double.init) { energy = kilojoules / 4.184 }
        return (Product.catalogKey(for: code), Product(name: name, brand: field(brand), quantity: field(quantity), energyKcal: energy))
    }
}
