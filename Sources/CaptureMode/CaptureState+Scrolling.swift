import Foundation

/// The mouse on capture's screens: the wheel scrolls review's fields and a batch's
/// lines, and a click on the picker selects a kind (a second click on it chooses it).
extension CaptureState {
    /// Rows review may scroll by, at most: one a field, a note's lines and room for wrapping.
    /// The view clamps to the rows its width needs, so the offset only has to stop growing.
    var reviewScrollLimit: Int {
        let noteLines = kind == .note ? note.text.split(separator: "\n", omittingEmptySubsequences: false).count + note.text.count / 20 : 0
        return 4 + (barcode?.fields.count ?? 0) + 2 * photos.count + noteLines
    }

    /// One step of the wheel over the body: review's fields, or a batch's lines (down shows
    /// older scans); nothing elsewhere.
    mutating func scrollBody(by delta: Int) -> [CaptureEffect] {
        switch phase {
        case .review:
            reviewScrollOffset = min(max(0, reviewScrollOffset + delta), reviewScrollLimit)
        case .barcode where kind == .batch:
            batchScrollOffset = min(max(0, batchScrollOffset + delta), max(0, batch.lines.count - 1))
        default:
            break
        }
        return []
    }

    /// A click on the picker's row `index`: the first selects it, a click on the selected row
    /// chooses it, as a click does in the other lists.
    mutating func pickerRowClicked(_ index: Int) -> [CaptureEffect] {
        guard phase == .picker, pickerKinds.indices.contains(index) else { return [] }
        guard index == pickerCursor else {
            pickerCursor = index
            return []
        }
        return send(.kindChosen(pickerKinds[index]))
    }
}
