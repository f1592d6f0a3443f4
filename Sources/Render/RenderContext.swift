import Domain
import Foundation
import TabShell

/// What every view needs besides its own state: the glyph set, the sanitizer for data, "now",
/// and the photo previews the model holds.
struct RenderContext {
    let options: RenderOptions
    let glyphs: Glyphs
    let sanitizer: Sanitizer
    /// The previews asked for and held.
    let previews: PreviewsState
    /// The style previews are drawn in; nil when previews are off (screens stay text only).
    let previewStyle: PreviewStyle?
    /// The box of a thumbnail beside a photo's name; nil when previews are off.
    let thumbnailBox: CellBox?

    init(options: RenderOptions, previews: PreviewsState = PreviewsState(), previewStyle: PreviewStyle? = nil, thumbnailBox: CellBox? = nil) {
        self.options = options
        glyphs = options.screenReader ? .screenReader : options.unicode ? .unicode : .ascii
        sanitizer = Sanitizer(unicode: options.unicode)
        self.previews = previews
        self.previewStyle = previewStyle
        self.thumbnailBox = previewStyle == nil ? nil : thumbnailBox
    }

    /// The request a preview of `source` in `box` was asked for with; nil when previews are off.
    func previewRequest(for source: PhotoSource, box: CellBox) -> PreviewRequest? {
        previewStyle.map { PreviewRequest(source: source, box: box, style: $0) }
    }

    var now: Date { options.now }

    /// Screen-reader mode: words for marks, the cursor on what has focus, the announcement line.
    var screenReader: Bool { options.screenReader }

    /// Whether key names and arrows are drawn as symbols (`↑↓`) rather than words (`Up/Dn`):
    /// never in screen-reader mode, where a symbol reads as nothing or as its Unicode name.
    var symbolKeys: Bool { options.unicode && !options.screenReader }

    /// Data made safe for a single-line place.
    func line(_ text: String) -> String { sanitizer.line(text) }

    /// Data made safe and split into lines.
    func lines(_ text: String) -> [String] { sanitizer.lines(text) }

    /// How long ago `date` was, in a few cells.
    func age(_ date: Date) -> String { Age.short(from: date, now: now) }
}
