import CaptureMode
import Foundation

// MARK: - State

/// A record's detail on History's stack: the row it was opened from, its photos once storage
/// has answered, and how far it is scrolled.
public struct HistoryDetailState: Equatable, Sendable {
    public var record: HistoryRow
    /// Nil until `.recordDetailLoaded` arrives.
    public var photos: [RecordPhoto]?
    /// The first line shown.
    public var scrollOffset: Int
    /// A batch's lines, nil until the detail is loaded.
    public var lines: [BatchLine]?

    public init(record: HistoryRow, photos: [RecordPhoto]? = nil, scrollOffset: Int = 0) {
        self.record = record
        self.photos = photos
        self.scrollOffset = scrollOffset
    }
}

/// A screen pushed on History's navigation stack.
public enum HistoryRoute: Equatable, Sendable {
    case detail(HistoryDetailState)

    /// The record the screen shows.
    public var recordID: Int64 {
        switch self {
        case let .detail(detail): detail.record.id
        }
    }
}

// MARK: - Reducer

extension HistoryDetailState {
    /// Scrolls by a list move, by the lines `HistoryDetailLayout` lays out.
    mutating func scroll(_ move: ListMove, layout: Layout) {
        let page = max(1, layout.contentRows - 1)
        switch move {
        case .up: scrollOffset -= 1
        case .down: scrollOffset += 1
        case .pageUp: scrollOffset -= page
        case .pageDown: scrollOffset += page
        case .home: scrollOffset = 0
        case .end: scrollOffset = Int.max / 2
        }
        clamp(layout: layout)
    }

    /// Keeps the offset between the top and the last screenful.
    mutating func clamp(layout: Layout) {
        let maximum = HistoryDetailLayout(layout: layout).maximumScrollOffset(of: self)
        scrollOffset = min(max(0, scrollOffset), maximum)
    }

    /// Takes what storage read of the record: the row as it is now and its photos.
    mutating func load(_ detail: RecordDetail, layout: Layout) {
        record = detail.record
        photos = detail.photos
        lines = detail.record.kind == .batch ? detail.lines : nil
        clamp(layout: layout)
    }
}
