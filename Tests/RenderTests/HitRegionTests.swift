import CaptureMode
import Domain
import Testing

@testable import Render
@testable import TabShell

@Suite struct HitRegionTests {
    @Test(arguments: [(80, 24, "+ Create"), (40, 12, "+ Create"), (24, 8, "+")])
    func clickingCreateChoosesTheActionTab(columns: Int, rows: Int, label: String) {
        let frame = Screen.render(Demo.state(.history, columns: columns, rows: rows), options: Demo.options)
        #expect(frame.click(on: label, inRow: rows - 1) == .tabChosen(.create))
    }

    @Test func clickingTabsOnATopBar() {
        let frame = Screen.render(Demo.state(.inbox, settings: Settings(tabBarPosition: .top)), options: Demo.options)
        #expect(frame.click(on: "History", inRow: 0) == .tabChosen(.history))
        #expect(frame.click(on: "Settings", inRow: 0) == .tabChosen(.settings))
    }

    static let capturePhases = Gallery.states().filter { $0.state.presentation.capture != nil && $0.state.presentation.alert == nil }

    @Test(arguments: [(24, 8), (40, 12), (80, 24)])
    func doneAndCloseAreAlwaysVisibleAndClickable(columns: Int, rows: Int) {
        #expect(Self.capturePhases.count >= 6)
        for (name, state) in Self.capturePhases {
            for options in [Demo.options, Demo.plainOptions] {
                let frame = Screen.render(Gallery.resized(state, columns: columns, rows: rows), options: options)
                #expect(frame.click(on: "[ Done ]", inRow: 0) == .capture(.doneTapped), "\(name) at \(columns)x\(rows)")
                #expect(frame.click(on: "[ Close ]", inRow: 0) == .capture(.closeTapped), "\(name) at \(columns)x\(rows)")
                #expect(frame.find("Ca", inRow: 0) != nil, "\(name): the title shrinks but stays")
            }
        }
    }

    @Test func captureCoversTheTabBar() {
        for (name, state) in Self.capturePhases {
            let frame = Screen.render(state, options: Demo.options)
            #expect(!frame.hitRegions.contains { if case .tabChosen = $0.action { true } else { false } }, "\(name)")
        }
    }

    @Test func clickingAKindInThePicker() {
        let capture = Demo.capture()
        let frame = Screen.render(Demo.state(presentation: capture), options: Demo.options)
        let kinds = capture.capture?.pickerKinds ?? []
        // A click selects the row; the reducer chooses the kind on a second click.
        #expect(frame.click(on: "Note") == .capture(.pickerRowClicked(kinds.firstIndex(of: .note) ?? -1)))
        #expect(frame.click(on: "Barcode") == .capture(.pickerRowClicked(kinds.firstIndex(of: .barcode) ?? -1)))
    }

    @Test func clickingASettingCyclesIt() {
        let frame = Screen.render(Demo.state(.settings), options: Demo.options)
        #expect(frame.click(on: "Colour") == .settings(.rowCycled(.colorEnabled, forward: true)))
        #expect(frame.click(on: "Tab bar position") == .settings(.rowCycled(.tabBarPosition, forward: true)))
    }

    @Test func anAlertIsModal() {
        let state = Demo.state(.inbox, presentation: .alert(.requestRequired, over: .none))
        let frame = Screen.render(state, options: Demo.options)
        #expect(frame.click(on: "[ OK ]") == .alertButtonPressed(0))
        #expect(frame.hitRegions.map(\.action) == [.alertButtonPressed(0)])
        #expect(frame.cursor == nil)
    }

    @Test func theHelpSheetLeavesTheTabBarClickable() {
        let frame = Screen.render(Demo.state(.inbox, presentation: .sheet(.help(HelpState(scrollOffset: 0)))), options: Demo.options)
        #expect(frame.click(on: "History", inRow: 23) == .tabChosen(.history))
        #expect(frame.find("Keys") != nil)
    }

    @Test(arguments: [(80, 24, "Delete (y)", "Cancel (n)"), (40, 12, "Delete (y)", "Cancel (n)"), (24, 8, "[Delete]", "[Cancel]")])
    func aQuestionsButtonsAreClickableAndNothingElse(columns: Int, rows: Int, delete: String, cancel: String) {
        let alert = Alert.confirmDeletion(of: Demo.historyRows[0], photoCount: 2)
        let frame = Screen.render(Demo.state(.history, columns: columns, rows: rows, presentation: .alert(alert, over: .none)), options: Demo.options)
        #expect(frame.click(on: delete) == .alertButtonPressed(0), "\(columns)x\(rows)")
        #expect(frame.click(on: cancel) == .alertButtonPressed(1), "\(columns)x\(rows)")
        #expect(frame.hitRegions.allSatisfy { $0.action == .alertButtonPressed(0) || $0.action == .alertButtonPressed(1) })
    }

    @Test func searchResultsAreClickableAndTheTabBarStaysSo() {
        let frame = Screen.render(Demo.state(.inbox, presentation: Demo.search("40", results: 6)), options: Demo.options)
        #expect(frame.click(on: "96385074") == .rowClicked(2))
        #expect(frame.click(on: "History", inRow: 23) == .tabChosen(.history))
        #expect(frame.cursor?.row == 2, "the text cursor is in the query field")
    }

    @Test func aGroupedHistoryRowIsClickableByPosition() {
        let frame = Screen.render(Demo.state(.history, history: Demo.groupedHistory(.byKind)), options: Demo.options)
        #expect(frame.click(on: "96385074") == .rowClicked(1))
    }
}
