import CaptureMode
import Domain
import Foundation

// MARK: - State

/// A record's detail on History's stack: the row it was opened from, its photos once storage
/// has answered, and how far it is scrolled.
public struct HistoryDetailState: Equatable, Sendable {
    public var record: HistoryRow
    /// Nil until `.history(.detailLoaded)` arrives.
    public var photos: [RecordPhoto]?
    /// The first line shown.
    public var scrollOffset = 0
    /// A batch's lines, nil until the detail is loaded.
    public var lines: [BatchLine]?
    /// The highlighted photo, which Enter shows full screen (when previews are on).
    public var photoCursor = 0
}

// MARK: - Reducer

extension HistoryDetailState {
    /// A list move in the detail. With thumbnails showing, ↑ and ↓ highlight the previous or
    /// next photo, scrolling as little as shows it whole, and scroll on past the first and the
    /// last; Home and End also highlight the first and the last. Otherwise every move scrolls.
    mutating func move(_ move: ListMove, layout: Layout) {
        let detailLayout = HistoryDetailLayout(layout: layout)
        guard detailLayout.showsThumbnails(of: self), let count = photos?.count, count > 0 else {
            return scroll(move, layout: layout)
        }
        switch move {
        case .down where photoCursor < count - 1:
            photoCursor += 1
            reveal(photo: photoCursor, layout: detailLayout)
        case .up where photoCursor > 0:
            photoCursor -= 1
            reveal(photo: photoCursor, layout: detailLayout)
        case .home:
            photoCursor = 0
            scroll(.home, layout: layout)
        case .end:
            photoCursor = count - 1
            scroll(.end, layout: layout)
        case .up, .down, .pageUp, .pageDown:
            scroll(move, layout: layout)
        }
    }

    /// Scrolls as little as shows every line of photo `index`.
    private mutating func reveal(photo index: Int, layout: HistoryDetailLayout) {
        let ranges = layout.photoLineRanges(of: self)
        guard ranges.indices.contains(index) else { return }
        let range = ranges[index]
        if range.lowerBound < scrollOffset { scrollOffset = range.lowerBound }
        if range.upperBound > scrollOffset + layout.rows { scrollOffset = range.upperBound - layout.rows }
        scrollOffset = min(max(0, scrollOffset), layout.maximumScrollOffset(of: self))
    }

    /// Scrolls by a list move, by the lines `HistoryDetailLayout` lays out.
    mutating func scroll(_ move: ListMove, layout: Layout) {
        scrollOffset = move.scrolling(scrollOffset, rows: layout.contentRows)
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
        photoCursor = min(photoCursor, max(0, detail.photos.count - 1))
        clamp(layout: layout)
    }
}
