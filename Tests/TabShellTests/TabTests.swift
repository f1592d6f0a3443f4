import Domain
import TabShell
import Testing

@Suite("Tab")
struct TabTests {
    @Test("the tab bar reads Inbox, + Create, History, Settings")
    func order() {
        #expect(Tab.allCases == [.inbox, .create, .history, .settings])
        #expect(Tab.allCases.map(\.title) == ["Inbox", "+ Create", "History", "Settings"])
    }

    @Test("+ Create is the only action tab")
    func roles() {
        #expect(Tab.allCases.filter { $0.role == .action } == [.create])
        #expect(Tab.contentTabs == [.inbox, .history, .settings])
    }

    @Test("keys 1 to 4 follow the tab bar")
    func keys() {
        #expect(Tab.allCases.map(\.key) == ["1", "2", "3", "4"])
    }

    @Test("short titles are shorter than titles and never empty")
    func shortTitles() {
        for tab in Tab.allCases {
            #expect(!tab.shortTitle.isEmpty)
            #expect(tab.shortTitle.count < tab.title.count)
        }
    }
}
