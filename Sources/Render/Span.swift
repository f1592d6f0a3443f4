import Foundation
import TabShell

/// A piece of text in one style; lines that mix styles are arrays of spans.
struct Span: Equatable, Sendable {
    var text: String
    var style: CellStyle

    init(_ text: String, _ style: CellStyle = .normal) {
        self.text = text
        self.style = style
    }

    var width: Int { TextWidth.of(text) }
}

extension Array where Element == Span {
    var width: Int { reduce(0) { $0 + $1.width } }
}
