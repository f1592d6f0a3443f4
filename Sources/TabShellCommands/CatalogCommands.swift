import ArgumentParser
import CaptureMode
import Domain
import Foundation
import Logging
import Storage
import TabShell

/// `tabshell catalog import FILE|-`
public struct CatalogImport: CommandBody {
    public static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add or replace products from a CSV or tab-separated file, all or nothing.",
        discussion: """
            Two forms: the Open Food Facts export (a header with code and product_name, and brands, quantity and \
            energy-kcal_100g or energy_100g when present; other columns are ignored; tab-separated as Open Food Facts \
            publishes it), or rows of barcode,name[,brand,quantity] with or without a header. A product already in the \
            catalog is replaced; rows without a code or a name are skipped and counted. The file is read as a stream \
            in one transaction: a malformed line stops it with nothing imported, and so does a row of more than \
            10,000 fields or whose fields read hold more than 1 MiB. EAN-13, EAN-8, UPC-A and GTIN-14 \
            codes match whichever of these forms a scanner sends; other codes match exactly.
            """
    )

    @OptionGroup public var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The file, or - for standard input.", valueName: "file"), completion: .file())
    public var file: String

    public init() {}

    public func execute(_ context: CommandContext) throws {
        umask(0o077)
        let logger = database.logger(context)
        let input = context.inputDescriptor
        let descriptor: Int32
        if file == "-" {
            descriptor = input
        } else {
            descriptor = open((file as NSString).expandingTildeInPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw Failure("Cannot read \(file): \(String(cString: strerror(errno)).lowercased()).")
            }
        }
        defer { if descriptor != input { close(descriptor) } }
        let db = try database.openStore(environment: context.environment, logger: logger, longStatements: true)
        let started = ContinuousClock.now
        let report: CatalogImportReport
        do {
            report = try db.importCatalog(from: descriptor)
        } catch {
            logger.error("catalog import failed", metadata: ["file": "\(file)", "error": "\(error.message)"])
            throw Failure("\(file == "-" ? "standard input" : file): \(error.message) Nothing was imported.")
        }
        let elapsed = started.duration(to: .now)
        logger.info(
            "catalog import", metadata: ["file": "\(file)", "rows": "\(report.rows)", "added": "\(report.added)", "seconds": "\(elapsed)"])
        var lines = [
            "Imported \(Count.noun(report.rows - report.skipped, "product")) from \(Count.noun(report.rows, "row")) (\(report.form)): "
                + "\(Count.grouped(report.added)) added, \(Count.grouped(report.updated)) replaced."
        ]
        if report.skipped > 0 {
            var reasons: [String] = []
            if report.skippedWithoutCode > 0 { reasons.append("\(Count.grouped(report.skippedWithoutCode)) without a code") }
            if report.skippedWithoutName > 0 { reasons.append("\(Count.grouped(report.skippedWithoutName)) without a name") }
            if report.skippedTooLong > 0 { reasons.append("\(Count.grouped(report.skippedTooLong)) with a code over 64 or a name over 500 characters") }
            lines.append("Skipped \(Count.noun(report.skipped, "row")): " + reasons.joined(separator: ", ") + ".")
        }
        try finishing(context, writing: lines.joined(separator: "\n") + "\n")
    }
}

/// `tabshell catalog list [--json] [--limit N] [--search TEXT]`
public struct CatalogList: CommandBody, ListedItems {
    public static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the catalog's products by code.",
        discussion: "Codes are listed as they are matched: GTINs as 14 digits."
    )

    public static let noun = "products"
    public static let defaultLimit = 50

    @OptionGroup public var database: DatabaseOptions
    @OptionGroup public var list: ListOptions<Self>

    @Option(help: ArgumentHelp("Only products whose name or brand contains this text.", valueName: "text"))
    public var search: String?

    public init() {}

    public func execute(_ context: CommandContext) throws {
        let (_, db) = try database.open(context, mustExist: true)
        var listing = Listing(
            json: list.json, key: "products",
            empty: search == nil ? "The catalog is empty. Fill it with: tabshell catalog import products.csv" : "No product matches.",
            columns: [
                .init(title: "CODE"), .init(title: "NAME", maximumWidth: 50), .init(title: "BRAND", maximumWidth: 30),
                .init(title: "QUANTITY", maximumWidth: 20),
            ],
            context: context)
        try finishing {
            try db.catalogListing(limit: list.count, search: search) { code, product in
                try listing.add(
                    json: JSONText.object([
                        ("code", JSONString.quoted(code)), ("name", JSONString.quoted(product.name)),
                        ("brand", JSONText.optional(product.brand)), ("quantity", JSONText.optional(product.quantity)),
                        ("energyKcal100g", product.energyKcal.map { String(format: "%.1f", $0) } ?? "null"),
                    ]),
                    row: [code, product.name, product.brand ?? "", product.quantity ?? ""])
            }
            try listing.finish()
        }
    }
}

/// `tabshell catalog clear --yes`
public struct CatalogClear: CommandBody {
    public static let configuration = CommandConfiguration(commandName: "clear", abstract: "Delete every product of the catalog (records keep the names they were saved with).")

    @OptionGroup public var database: DatabaseOptions

    @Flag(help: "Confirm: the catalog is emptied.")
    public var yes = false

    public init() {}

    public func validate() throws {
        if !yes { throw ValidationError("catalog clear deletes every product: add --yes to confirm.") }
    }

    public func execute(_ context: CommandContext) throws {
        let (logger, db) = try database.open(context, mustExist: true)
        let count = try db.clearCatalog()
        logger.info("catalog clear", metadata: ["products": "\(count)"])
        try finishing(context, writing: "Deleted \(Count.noun(count, "product")) from the catalog.\n")
    }
}
