import Foundation
import TabShell

/// What a content tab shows in the shell: its heading (title on the left, context on the right,
/// a position on the rule below) and its body.
protocol TabContent {
    var heading: Heading { get }
    func draw(in rect: Rect, on canvas: inout Canvas)
}

/// The navigation title of a tab, iOS style.
struct Heading: Equatable {
    var title: String
    /// Right-aligned facts: "3 pending", "1,234 records".
    var context: String = ""
    /// Where the list is, drawn into the rule under the heading: "12/1,234".
    var position: String?
    /// Presenting or watching: "watch 4821 · 3 watching", beside the context when
    /// both fit, else on the rule under the heading; the context is never given up for it.
    var badge: String? = nil
}
