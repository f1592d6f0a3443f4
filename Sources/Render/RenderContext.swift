import Foundation
import TabShell

/// What every view needs besides its own state: the glyph set, the sanitizer for data, and "now".
struct RenderContext {
    let options: RenderOptions
    let glyphs: Glyphs
    let sanitizer: Sanitizer

    init(options: RenderOptions) {
        self.options = options
        glyphs = .forTerminal(unicode: options.unicode)
        sanitizer = Sanitizer(unicode: options.unicode)
    }

    var now: Date { options.now }

    /// Data made safe for a single-line place.
    func line(_ text: String) -> String { sanitizer.line(text) }

    /// Data made safe and split into lines.
    func lines(_ text: String) -> [String] { sanitizer.lines(text) }

    /// How long ago `date` was, in a few cells.
    func age(_ date: Date) -> String { Age.short(from: date, now: now) }
}
