import CaptureMode
import Domain
import Foundation

/// One line of a record's detail: a label (on a field's first line only) and the value's parts.
public struct DetailLine: Equatable, Sendable {
    /// How a part reads: the value itself, or something said about it (drawn dim).
    public enum Emphasis: Equatable, Sendable { case value, remark }

    public struct Part: Equatable, Sendable {
        public var text: String
        public var emphasis: Emphasis

        public init(_ text: String, _ emphasis: Emphasis = .value) {
            self.text = text
            self.emphasis = emphasis
        }
    }

    /// Which row of which photo's thumbnail the line carries at the start of its value; its
    /// text then starts after the thumbnail.
    public struct Thumbnail: Equatable, Sendable {
        /// The photo's index in the record's photos.
        public var photo: Int
        /// The thumbnail's row on this line.
        public var row: Int
    }

    public var label: String
    public var parts: [Part]
    public var thumbnail: Thumbnail?
}

/// How a record's detail is laid out in lines: labels in a column as wide as the longest label
/// shown (as capture's review lays them out), each value's paragraphs wrapped beside its label,
/// two lines per photo (name, then facts), the note last. When values would be too narrow beside
/// the labels, each label stands on its own line with its value under it: a label is never cut.
/// The reducer scrolls by these lines and Render draws these same lines, styling each part.
public struct HistoryDetailLayout: Equatable, Sendable {
    /// Cells between the longest label and the values.
    public static let labelGap = 2
    /// The cells left of the text for the selection pointer (as lists have).
    public static let gutterWidth = 2
    /// The least room for a value beside the labels (an EAN-13 or a GTIN-14 whole); narrower,
    /// values go under their labels.
    public static let minimumValueWidth = 14
    /// How far a value under its label is indented.
    public static let stackedIndent = 2

    /// Cells for the labels and values, the screen less a column each side and the gutter.
    public let textWidth: Int
    /// Rows the detail has on screen.
    public let rows: Int
    /// The box of a photo's thumbnail, when previews are on.
    public let thumbnail: CellBox?

    /// Where a detail's labels and values go.
    public struct Columns: Equatable, Sendable {
        /// Cells from the text's left edge to the values: the longest label and the gap beside
        /// it, or the indent under labels standing on their own lines.
        public var label: Int
        /// Cells for a value; 0 or less when the screen is too narrow for values.
        public var value: Int
        /// Labels stand on their own lines, each value under its label.
        public var stacked: Bool
    }

    /// The least room beside a thumbnail for a photo's name and facts; narrower, the detail
    /// lists photos as text only.
    public static let minimumTextBesideThumbnail = 8

    public init(layout: Layout) {
        // The content area is the screen less a column each side; the text starts after the gutter.
        textWidth = layout.size.columns - 2 - Self.gutterWidth
        rows = layout.contentRows
        thumbnail = layout.thumbnail
    }

    /// Cells between a thumbnail and its photo's name: a space, the highlighted photo's pointer
    /// and a space.
    public static let thumbnailGap = 3

    /// The columns for labels as wide as `labels`' longest in `width` cells (a detail's
    /// `textWidth`; capture's review lays out its fields by the same rule): beside the values
    /// when a value keeps `minimumValueWidth` cells there, else stacked.
    public static func columns(forLabels labels: [String], width: Int) -> Columns {
        let label = (labels.map(TextWidth.of).max() ?? 0) + labelGap
        if width - label >= minimumValueWidth {
            return Columns(label: label, value: width - label, stacked: false)
        }
        return Columns(label: stackedIndent, value: width - stackedIndent, stacked: true)
    }

    /// The columns of `detail`'s labels and values.
    public func columns(of detail: HistoryDetailState) -> Columns {
        Self.columns(forLabels: entries(of: detail, glyphs: .unicode, now: nil).map(\.label), width: textWidth)
    }

    /// Cells for a photo's name and facts beside its thumbnail.
    func textBesideThumbnail(_ columns: Columns) -> Int {
        guard let thumbnail else { return columns.value }
        return columns.value - thumbnail.columns - Self.thumbnailGap
    }

    /// Whether the detail draws its photos with thumbnails: previews are on, the photos are
    /// loaded, and there is room for their names beside the thumbnails.
    public func showsThumbnails(of detail: HistoryDetailState) -> Bool {
        showsThumbnails(of: detail, columns: columns(of: detail))
    }

    private func showsThumbnails(of detail: HistoryDetailState, columns: Columns) -> Bool {
        guard thumbnail != nil, Self.showsPhotos(detail), detail.photos?.isEmpty == false else { return false }
        return textBesideThumbnail(columns) >= Self.minimumTextBesideThumbnail
    }

    /// The lines of each photo, by photo index (empty without thumbnails).
    public func photoLineRanges(of detail: HistoryDetailState) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, line) in lines(of: detail, glyphs: .unicode, now: nil).enumerated() {
            guard let thumbnail = line.thumbnail else { continue }
            if thumbnail.photo == ranges.count {
                ranges.append(index..<(index + 1))
            } else if let last = ranges.last {
                ranges[ranges.count - 1] = last.lowerBound..<(index + 1)
            }
        }
        return ranges
    }

    /// Whether the detail lists photos: for kinds that take them, and for any record that has some.
    public static func showsPhotos(_ detail: HistoryDetailState) -> Bool {
        [.photos, .product].contains(detail.record.kind) || detail.photos?.isEmpty == false
    }

    /// One labelled part of the detail before it is laid out.
    private enum Entry {
        /// A value's paragraphs, with a remark after it when both fit on one line; a remark that
        /// `keeps` (a batch line's count and symbology) shows at every width, after the value's
        /// last line or on lines of its own under it.
        case field(label: String, paragraphs: [String], remark: String?, keeps: Bool, emphasis: DetailLine.Emphasis)
        /// The record's photos (or that they are loading, or none).
        case photos([RecordPhoto]?)

        var label: String {
            switch self {
            case let .field(label, _, _, _, _): label
            case .photos: "Photos"
            }
        }
    }

    /// The detail's labelled parts, top to bottom.
    private func entries(of detail: HistoryDetailState, glyphs: Glyphs, now: Date?) -> [Entry] {
        let record = detail.record
        let sanitizer = Sanitizer(unicode: glyphs == .unicode)
        var entries: [Entry] = []
        func field(
            _ label: String, _ paragraphs: [String], remark: String? = nil, keeps: Bool = false, emphasis: DetailLine.Emphasis = .value
        ) {
            entries.append(.field(label: label, paragraphs: paragraphs, remark: remark, keeps: keeps, emphasis: emphasis))
        }
        field("Kind", [record.kind.title])
        if let barcode = record.barcode {
            field("Barcode", sanitizer.lines(barcode.value), remark: barcode.symbology.title)
            for gs1 in barcode.fields {
                field(sanitizer.line(gs1.label), sanitizer.lines(gs1.value))
            }
        }
        if record.kind == .batch, let lines = detail.lines {
            field("Scans", [record.summary])
            for (index, line) in lines.enumerated() {
                // The count and symbology are what tells the lines apart: kept at every width.
                field(
                    index == 0 ? "Lines" : "", sanitizer.lines(line.barcode.summary),
                    remark: "\u{00D7}\(line.quantity)  \(line.barcode.symbology.title)", keeps: true)
            }
        }
        if let product = record.product {
            field("Product", sanitizer.lines(product.summary))
        }
        if let title = record.requestTitle {
            field("Request", sanitizer.lines(title), remark: record.requestID.map { "#\($0)" })
        } else {
            field("Request", [glyphs.dash], emphasis: .remark)
        }
        if let requester = record.requester {
            field("From", sanitizer.lines(requester))
        }
        field("Captured", [Age.timestamp(record.createdAt)], remark: now.map { Age.phrase(from: record.createdAt, now: $0) })
        if let person = record.capturedBy {
            field("By", sanitizer.lines(person))
        }
        if Self.showsPhotos(detail) {
            entries.append(.photos(detail.photos))
        }
        // The note goes last so a long one cannot push the other fields off the screen.
        if let note = record.note {
            field("Note", sanitizer.lines(note))
        }
        return entries
    }

    /// Every line of the detail, top to bottom. `now` adds the record's age beside its time
    /// when it fits; without it (the reducer counting lines) the count is the same, because a
    /// remark only ever shares a line that the value alone fills.
    public func lines(of detail: HistoryDetailState, glyphs: Glyphs, now: Date?) -> [DetailLine] {
        let sanitizer = Sanitizer(unicode: glyphs == .unicode)
        let entries = entries(of: detail, glyphs: glyphs, now: now)
        let columns = Self.columns(forLabels: entries.map(\.label), width: textWidth)
        let valueWidth = columns.value
        var lines: [DetailLine] = []

        /// The label of an entry: the first line's, beside the value; or, stacked, lines of its
        /// own (wrapped when even the whole width is too narrow for it), the value under them.
        func label(_ label: String) -> String {
            guard columns.stacked else { return label }
            if !label.isEmpty {
                for text in textWidth > 0 ? TextWrap.lines(label, width: textWidth) : [label] {
                    lines.append(DetailLine(label: text, parts: []))
                }
            }
            return ""
        }

        /// A field: its paragraphs wrapped beside the label, or one line with a remark after the
        /// value when both fit. A remark that `keeps` goes after the value's last line when it
        /// fits there, else on lines of its own under the value; any other is left out.
        func field(_ label: String, _ paragraphs: [String], remark: String?, keeps: Bool, emphasis: DetailLine.Emphasis) {
            if let remark, paragraphs.count == 1,
                TextWidth.of(paragraphs[0]) + 2 + TextWidth.of(remark) <= valueWidth
            {
                lines.append(DetailLine(label: label, parts: [.init(paragraphs[0], emphasis), .init("  \(remark)", .remark)]))
                return
            }
            let wrapped = valueWidth > 0 ? TextWrap.lines(paragraphs, width: valueWidth) : paragraphs.map { _ in "" }
            for (index, text) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
                lines.append(DetailLine(label: index == 0 ? label : "", parts: [.init(text, emphasis)]))
            }
            guard keeps, let remark, let last = lines.indices.last else { return }
            if let text = wrapped.last, TextWidth.of(text) + 2 + TextWidth.of(remark) <= valueWidth {
                lines[last].parts.append(.init("  \(remark)", .remark))
            } else {
                for text in valueWidth > 0 ? TextWrap.lines(remark, width: valueWidth) : [remark] {
                    lines.append(DetailLine(label: "", parts: [.init(text, .remark)]))
                }
            }
        }

        for entry in entries {
            switch entry {
            case let .field(name, paragraphs, remark, keeps, emphasis):
                field(label(name), paragraphs, remark: remark, keeps: keeps, emphasis: emphasis)
            case let .photos(photos):
                let name = label(entry.label)
                switch photos {
                case nil:
                    lines.append(DetailLine(label: name, parts: [.init("Loading\(glyphs.ellipsis)", .remark)]))
                case let photos? where photos.isEmpty:
                    lines.append(DetailLine(label: name, parts: [.init("None", .remark)]))
                case let photos?:
                    // With thumbnails, one each, its name and facts beside it, a blank line between
                    // photos. Without, two lines each, cut rather than wrapped: the name, then its
                    // facts under it, all moved left as far as it takes to show the longest facts whole.
                    let box: CellBox? = showsThumbnails(of: detail, columns: columns) ? thumbnail ?? CellBox(columns: 0, rows: 2) : nil
                    let facts = photos.map { PhotoFacts.describe($0, glyphs: glyphs) }
                    let numberWidth = "\(photos.count). ".count
                    let indent = box == nil ? max(0, min(numberWidth, valueWidth - (facts.map(TextWidth.of).max() ?? 0))) : numberWidth
                    for (index, photo) in photos.enumerated() {
                        if index > 0, box != nil { lines.append(DetailLine(label: "", parts: [])) }
                        let number = "\(index + 1). ".padding(toLength: numberWidth, withPad: " ", startingAt: 0)
                        for row in 0..<max(2, box?.rows ?? 0) {
                            let parts: [DetailLine.Part] =
                                switch row {
                                case 0: [.init(number), .init(sanitizer.line(photo.originalName))]
                                case 1: [.init(String(repeating: " ", count: indent)), .init(facts[index], .remark)]
                                default: []
                                }
                            lines.append(
                                DetailLine(
                                    label: index == 0 && row == 0 ? name : "", parts: parts,
                                    thumbnail: box.flatMap { row < $0.rows ? DetailLine.Thumbnail(photo: index, row: row) : nil }
                                ))
                        }
                    }
                }
            }
        }
        return lines
    }

    /// The largest first line: the last line at the bottom of the screen.
    public func maximumScrollOffset(of detail: HistoryDetailState) -> Int {
        max(0, lines(of: detail, glyphs: .unicode, now: nil).count - rows)
    }
}
