import Foundation
import TabShell

/// Shown instead of everything when the terminal is below `Layout.minimumSize`.
struct TooSmallView {
    let size: ScreenSize

    func draw(on canvas: inout Canvas) {
        let minimum = Layout.minimumSize
        let lines = [
            Span("Terminal too small", .heading),
            Span("need \(minimum.columns)x\(minimum.rows), have \(size.columns)x\(size.rows)", .dim),
        ].prefix(max(0, size.rows))
        let area = canvas.bounds.centered(width: size.columns, height: lines.count)
        for (offset, line) in lines.enumerated() {
            canvas.putCentered([line], in: area.line(offset))
        }
    }
}
