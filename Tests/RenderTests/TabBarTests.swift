import Domain
import TabShell
import Testing

@testable import Render

@Suite struct TabBarTests {
    @Test func noTabIsEverDropped() {
        for columns in 24...200 {
            for selected in ContentTab.allCases {
                var state = Demo.state(selected, columns: columns, rows: 8)
                state.inbox.pendingCount = columns % 3 == 0 ? 1_234 : 3
                let frame = Screen.render(state, options: Demo.options)
                let bar = frame.hitRegions.filter { $0.row == 7 }
                #expect(bar.map(\.action) == Tab.allCases.map { .tabChosen($0) }, "at \(columns)")
                for (tab, region) in zip(Tab.allCases, bar) {
                    let text = region.columns.map { frame.grid[7, $0].text }.joined()
                    let names = [tab.title, tab.shortTitle, String(tab.key)]
                    #expect(names.contains { text.contains($0) }, "\(tab) at \(columns): \(text)")
                    #expect(text.contains("[") == (tab == selected.tab), "\(tab) at \(columns): \(text)")
                }
                #expect(zip(bar, bar.dropFirst()).allSatisfy { $0.columns.upperBound <= $1.columns.lowerBound })
            }
        }
    }

    @Test func labelsShrinkInOrder() {
        func bar(_ columns: Int) -> String {
            Screen.render(Demo.state(.inbox, columns: columns, rows: 8), options: Demo.options).grid.text(ofRow: 7)
        }
        #expect(bar(80).contains("[ Inbox (3) ]") && bar(80).contains("+ Create"))
        #expect(bar(40).contains("[Inbox(3)]") && bar(40).contains("Settings"))
        #expect(bar(30).contains("[In(3)]") && bar(30).contains("Hist"))
        #expect(bar(24).contains("[1(3)]") && bar(24).contains("4"))
    }

    @Test func theBadgeHidesWhenNothingIsPending() {
        var state = Demo.state(.inbox)
        state.inbox.pendingCount = 0
        #expect(!Screen.render(state, options: Demo.options).grid.text(ofRow: 23).contains("("))
    }
}
