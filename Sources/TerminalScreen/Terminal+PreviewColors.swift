import CCrashGuard
import CNcursesw
import Glibc
import Render
import TabShell
import TerminalInput

/// Photo previews' own colours, drawn with colour pairs allocated on demand.
extension Terminal {
    // MARK: - Photo preview colours

    /// A preview cell's look: plain attributes and the pair of its two palette colours. Nil
    /// when previews cannot have colours here (colour off, fewer than 256 colours, or no pair
    /// left this frame), and the cell is drawn as plain text: the shapes still show the picture.
    func previewLook(_ paint: CellPaint) -> (attr_t, Int16)? {
        guard supportsColor, lastPreviewPair >= Self.firstPreviewPair else { return nil }
        let defaultForeground: Int16 = hasDefaultColors ? -1 : Int16(COLOR_WHITE)
        let defaultBackground: Int16 = hasDefaultColors ? -1 : Int16(COLOR_BLACK)
        let foreground = paint.foreground.map { Int16($0.index256) } ?? defaultForeground
        let background = paint.background.map { Int16($0.index256) } ?? defaultBackground
        let key = UInt32(UInt16(bitPattern: foreground)) << 16 | UInt32(UInt16(bitPattern: background))
        if let pair = previewPairs[key] { return (ts_a_normal(), pair) }
        guard nextPreviewPair <= lastPreviewPair else { return nil }
        let pair = Int16(nextPreviewPair)
        guard init_pair(pair, foreground, background) == OK else { return nil }
        previewPairs[key] = pair
        nextPreviewPair += 1
        return (ts_a_normal(), pair)
    }

    /// Before a frame: when fewer than a quarter of the previews' pairs are left, start the range
    /// again. curses repaints the cells whose pair is redefined, and this frame allocates anew.
    func recyclePreviewPairsIfLow() {
        let size = lastPreviewPair - Self.firstPreviewPair + 1
        guard size > 0, lastPreviewPair - nextPreviewPair + 1 < size / 4 else { return }
        previewPairs.removeAll(keepingCapacity: true)
        nextPreviewPair = Self.firstPreviewPair
        previousGrid = nil
    }

    static func cursesAttributes(_ attributes: TerminalStyle.Attributes) -> attr_t {
        var result = ts_a_normal()
        if attributes.contains(.bold) { result |= ts_a_bold() }
        if attributes.contains(.dim) { result |= ts_a_dim() }
        if attributes.contains(.reverse) { result |= ts_a_reverse() }
        if attributes.contains(.underline) { result |= ts_a_underline() }
        return result
    }

    static func colorPair(_ style: CellStyle) -> Int16 { Int16(style.rawValue) + 1 }
}
