import Foundation
import Storage
import TestSupport
import Testing

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT in every screen: exit within a second, the terminal put
/// back (stty, main screen, cursor), the right exit status, and staged files either a whole,
/// resumable draft or gone — never half-written. Prints a matrix of exit times.
@Suite(.serialized, .tags(.e2e))
struct SignalMatrixEndToEndTests {
    static let signals: [(name: String, number: Int32, exitCode: Int)] = [
        ("INT", SIGINT, 0), ("TERM", SIGTERM, 128 + Int(SIGTERM)),
        ("HUP", SIGHUP, 128 + Int(SIGHUP)), ("QUIT", SIGQUIT, 128 + Int(SIGQUIT)),
    ]

    struct Cell {
        let screen: AppScreen
        let signal: String
        let elapsed: Double?
        let cpuSeconds: Double
    }

    @Test func everySignalInEveryScreen() throws {
        var cells: [Cell] = []
        var failures: [String] = []
        for screen in AppScreen.allCases {
            for signal in Self.signals {
                let s = try TabShellEndToEndTests.launch()
                let photo = try s.writePNG()
                try screen.open(in: s, photo: photo)
                let pid = try TabShellEndToEndTests.appPID(s)
                kill(pid, signal.number)
                let gone = Stress.waitGone(pid, timeout: 5)
                cells.append(Cell(screen: screen, signal: signal.name, elapsed: gone.elapsed, cpuSeconds: gone.cpuSeconds))
                let label = "\(signal.name) in \(screen)"
                if (gone.elapsed ?? 99) > 1.0 { failures.append("\(label): exit took \(Stress.format(gone.elapsed))") }
                #expect((gone.elapsed ?? 99) <= 1.0, "\(label): exit took \(Stress.format(gone.elapsed)), over 1 s")
                try TabShellEndToEndTests.expectTerminalRestored(s)
                #expect(try TabShellEndToEndTests.exitCode(s) == signal.exitCode, "\(label): exit status")
                try Self.expectStagingWholeOrGone(s, screen: screen, label: label)
            }
        }
        Self.printMatrix(cells)
        if !failures.isEmpty { print("signal matrix: over the 1 s bound: \(failures.joined(separator: "; "))") }
    }

    /// Staged files after the exit: none outside capture; in capture at most one folder holding
    /// `lock`, `draft.json` and whole photos (no `.tmp-` copies), which recovery offers back.
    static func expectStagingWholeOrGone(_ s: TmuxSession, screen: AppScreen, label: String) throws {
        let files = s.stagedFiles()
        #expect(!files.contains { $0.contains("/.tmp-") }, "\(label): half-written file left in staging: \(files)")
        guard screen.isCapture else {
            #expect(files.isEmpty, "\(label): staging should be empty outside capture: \(files)")
            return
        }
        let db = try TabShellEndToEndTests.database(in: s)
        let report = try db.recover(now: Date())
        #expect(report.problems.isEmpty, "\(label): recovery problems \(report.problems)")
        if screen == .photos {
            #expect(report.drafts.count == 1, "\(label): the staged photo is kept as a resumable draft")
            #expect(report.drafts.first?.draft.photos.count == 1, "\(label): the draft lists its photo")
            for draft in report.drafts {
                for photo in draft.draft.photos {
                    let size = (try? FileManager.default.attributesOfItem(atPath: draft.directory.appendingPathComponent(photo.storedName).path)[.size] as? Int) ?? -1
                    #expect(Int64(size) == photo.byteSize, "\(label): staged photo is whole")
                }
            }
        }
        if screen == .review {
            #expect(report.drafts.first?.draft.barcode?.value == "96385074", "\(label): the scanned code is kept as a draft")
        }
    }

    static func printMatrix(_ cells: [Cell]) {
        var lines = [
            "signal matrix: time from kill(2) to the process gone (bound 1000ms)",
            "screen    " + signals.map { $0.name.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined(),
        ]
        for screen in AppScreen.allCases {
            let row = signals.map { signal in
                let cell = cells.first { $0.screen == screen && $0.signal == signal.name }
                return (Stress.format(cell?.elapsed) + "  ").padding(toLength: 9, withPad: " ", startingAt: 0)
            }
            lines.append(screen.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + row.joined())
        }
        let times = cells.compactMap(\.elapsed).sorted()
        if let worst = times.last {
            lines.append(
                String(
                    format: "cells %d, median %.0fms, worst %.0fms, CPU during exit max %.2fs",
                    cells.count, times[times.count / 2] * 1000, worst * 1000, cells.map(\.cpuSeconds).max() ?? 0))
        }
        print(lines.joined(separator: "\n"))
    }
}
