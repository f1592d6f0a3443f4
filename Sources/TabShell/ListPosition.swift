import Foundation

/// How a list cursor moves.
public enum ListMove: Equatable, Sendable, CaseIterable {
    case up, down, pageUp, pageDown, home, end

    /// Where this move goes from `offset` (a cursor, or the first line shown of a text that
    /// scrolls) in a list or text `rows` lines high: a line, a page less one line, or to either
    /// end. The caller clamps it to the list or to the text's last screenful (`.end` goes as far
    /// as it can).
    public func scrolling(_ offset: Int, rows: Int) -> Int {
        let page = max(1, rows - 1)
        switch self {
        case .up: return offset - 1
        case .down: return offset + 1
        case .pageUp: return offset - page
        case .pageDown: return offset + page
        case .home: return 0
        case .end: return Int.max / 2
        }
    }
}

/// A cursor and the first visible row of a scrolling list, in absolute row indices.
public struct ListPosition: Equatable, Sendable {
    public var cursor: Int
    public var scrollOffset: Int

    public init(cursor: Int = 0, scrollOffset: Int = 0) {
        self.cursor = cursor
        self.scrollOffset = scrollOffset
    }

    /// Moves the cursor within `0..<count` and scrolls just enough to keep it within `viewport` rows.
    public mutating func move(_ move: ListMove, count: Int, viewport: Int) {
        cursor = move.scrolling(cursor, rows: viewport)
        // A page turns the rows shown with the cursor.
        if move == .pageUp || move == .pageDown { scrollOffset = move.scrolling(scrollOffset, rows: viewport) }
        clamp(count: count, viewport: viewport)
    }

    /// Keeps the cursor in range and visible, and the list from scrolling past its end.
    public mutating func clamp(count: Int, viewport: Int) {
        let viewport = max(1, viewport)
        guard count > 0 else {
            cursor = 0
            scrollOffset = 0
            return
        }
        cursor = min(max(0, cursor), count - 1)
        scrollOffset = min(max(0, scrollOffset), max(0, count - viewport))
        if cursor < scrollOffset { scrollOffset = cursor }
        if cursor >= scrollOffset + viewport { scrollOffset = cursor - viewport + 1 }
    }
}

extension ListPosition {
    /// The ids to put the cursor back on after the list is read again, best first: the item
    /// under the cursor, then those after it (nearest first), then those before it. `start` is
    /// the absolute index of `ids[0]` (a window of a longer list).
    public static func preference<ID>(around cursor: Int, in ids: [ID], startingAt start: Int = 0) -> [ID] {
        let local = cursor - start
        guard ids.indices.contains(local) else { return [] }
        return [ids[local]] + ids[(local + 1)...] + ids[..<local].reversed()
    }

    /// After a reload: puts the cursor on the first id of `preference` still in `ids` (the same
    /// item, else its nearest neighbour), keeping it on the same screen row where the list
    /// allows, so the item does not jump. A list shown from its top stays at its top while the
    /// item is still on screen there, so what arrived above it (a new request, a new record) is
    /// seen, as a feed scrolled to its top shows what comes in. With none of them there, the
    /// cursor keeps its index.
    public mutating func follow<ID: Equatable>(_ preference: [ID], in ids: [ID], startingAt start: Int = 0, count: Int, viewport: Int) {
        let screenRow = cursor - scrollOffset
        let atTop = scrollOffset == 0
        if let found = preference.lazy.compactMap({ id in ids.firstIndex(of: id) }).first {
            cursor = start + found
            scrollOffset = atTop && cursor < max(1, viewport) ? 0 : cursor - screenRow
        }
        clamp(count: count, viewport: viewport)
    }
}
