import ArgumentParser
import TabShellCommands

/// `tabshell catalog …`: the product catalog scans are named from (seed 003).
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "The product catalog: names and brands shown for scanned codes.",
        subcommands: [CatalogImportCommand.self, CatalogListCommand.self, CatalogClearCommand.self]
    )
}

/// `tabshell catalog import FILE|-`
struct CatalogImportCommand: ShellCommand {
    static let configuration = CommandConfiguration(
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

    @OptionGroup var options: CatalogImport
}

/// `tabshell catalog list [--json] [--limit N] [--search TEXT]`
struct CatalogListCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the catalog's products by code.",
        discussion: "Codes are listed as they are matched: GTINs as 14 digits."
    )

    @OptionGroup var options: CatalogList
}

/// `tabshell catalog clear --yes`
struct CatalogClearCommand: ShellCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete every product of the catalog (records keep the names they were saved with)."
    )

    @OptionGroup var options: CatalogClear
}
