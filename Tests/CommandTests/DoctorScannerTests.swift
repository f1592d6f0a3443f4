import CaptureMode
import Foundation
import Scanning
import Testing

/// `tabshell doctor --scanner` with the test scan coming from a pipe (no timing there).
@Suite struct DoctorScannerTests {
    @Test func aGS1ScanReportsItsPrefixSeparatorAndSuffix() throws {
        let workspace = try Workspace()
        let scan = "]C1" + "0109506000134352" + "10ABC123" + "\u{1D}" + "21XYZ" + "\r"
        let run = runCommand(["doctor", "--scanner", "--db", workspace.databaseURL.path], input: Data(scan.utf8))
        #expect(run.status == 0, "\(run.message)")
        #expect(run.output.contains("]C1"), "\(run.output)")
        #expect(run.output.contains("Enter"), "\(run.output)")
        #expect(run.output.contains("0x1D") || run.output.contains("group separator"), "\(run.output)")
        #expect(run.output.contains("not measured"), "\(run.output)")
    }

    @Test func anAZERTYScanSaysWhichLayoutAndTheFix() throws {
        let workspace = try Workspace()
        let scan = LayoutTranslation(scanner: .us, computer: .azerty).garble("4006381333931") + "\r"
        let run = runCommand(["doctor", "--scanner", "--db", workspace.databaseURL.path], input: Data(scan.utf8))
        #expect(run.output.contains("AZERTY"), "\(run.output)")
        #expect(run.output.contains("Scanner layout"), "\(run.output)")
    }

    @Test func nothingScannedIsAFailure() throws {
        let workspace = try Workspace()
        let run = runCommand(["doctor", "--scanner", "--db", workspace.databaseURL.path], input: Data())
        #expect(run.status != 0)
    }
}
