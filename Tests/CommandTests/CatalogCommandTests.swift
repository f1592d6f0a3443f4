import Foundation
import Testing

/// `tabshell catalog import | list | clear` as a script or a person runs them: output, errors
/// and exit statuses of the real binary.
@Suite struct CatalogCommandTests {
    @Test func importListAndClear() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let shell = BinaryTests()
        let imported = try shell.shell(
            #"printf 'barcode,name,brand\n036000291452,"Kleenex, soft",Kimberly\n,No code\n4006381333931,Pen\n' | "$TABSHELL" catalog import - --db "$DB""#,
            in: workspace)
        #expect(imported.status == 0)
        #expect(imported.out == "Imported 2 products from 3 rows (barcode,name list): 2 added, 0 replaced.\nSkipped 1 row: 1 without a code.\n")

        let listed = try shell.shell(#""$TABSHELL" catalog list --db "$DB""#, in: workspace)
        #expect(listed.out.contains("00036000291452  Kleenex, soft  Kimberly"), "\(listed.out)")
        let json = try shell.shell(#""$TABSHELL" catalog list --json --search kleen --db "$DB""#, in: workspace)
        #expect(
            json.out
                == "{\"version\":1,\"products\":[\n{\"code\":\"00036000291452\",\"name\":\"Kleenex, soft\",\"brand\":\"Kimberly\",\"quantity\":null,\"energyKcal100g\":null}\n]}\n")

        let refused = try shell.shell(#""$TABSHELL" catalog clear --db "$DB""#, in: workspace)
        #expect(refused.status == 64 && refused.err.contains("--yes"))
        let cleared = try shell.shell(#""$TABSHELL" catalog clear --yes --db "$DB"; "$TABSHELL" catalog list --db "$DB""#, in: workspace)
        #expect(cleared.out == "Deleted 2 products from the catalog.\nThe catalog is empty. Fill it with: tabshell catalog import products.csv\n")
    }

    @Test func aBadFileSaysWhereAndImportsNothing() throws {
        let workspace = try Workspace()
        _ = try workspace.seeded()
        let shell = BinaryTests()
        let run = try shell.shell(
            #"printf '4006381333931,Pen\nlonely\n' > "$HOME/bad.csv"; cd "$HOME"; "$TABSHELL" catalog import bad.csv --db "$DB"; echo "status $?"; "$TABSHELL" catalog list --db "$DB""#,
            in: workspace)
        #expect(run.err == "Error: bad.csv: line 2: expected barcode,name[,brand,quantity], found 1 field. Nothing was imported.\n")
        #expect(run.out.hasPrefix("status 1\nThe catalog is empty."))
        let missing = try shell.shell(#""$TABSHELL" catalog import nowhere.csv --db "$DB""#, in: workspace)
        #expect(missing.status == 1 && missing.err.contains("Cannot read nowhere.csv: no such file or directory."))
    }
}
