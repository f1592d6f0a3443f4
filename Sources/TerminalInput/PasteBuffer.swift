/// The text of one bracketed paste, collected between the terminal's begin and end markers.
///
/// Pasted text keeps its line breaks, tabs and GS1 group separators (CR and CRLF become "\n")
/// and loses every other control character, so a paste can never smuggle escape sequences or commands into the app.
/// It is capped so a runaway stream cannot eat memory; everything after the cut is dropped.
struct PasteBuffer: Sendable {
    static let byteLimit = 1 << 20

    private(set) var text = ""
    private var bytes = 0
    private var endedWithCR = false

    mutating func append(_ scalar: Unicode.Scalar) {
        let afterCR = endedWithCR
        endedWithCR = scalar == "\r"
        let character: Character
        switch scalar {
        case "\r": character = "\n"
        case "\n":
            if afterCR { return }
            character = "\n"
        case "\t": character = "\t"
        // The GS1 group separator: scanners in paste mode send it between variable fields.
        case "\u{1D}": character = "\u{1D}"
        default:
            guard !scalar.isControlLike else { return }
            character = Character(scalar)
        }
        let size = String(character).utf8.count
        guard bytes + size <= Self.byteLimit else {
            bytes = Self.byteLimit  // full: keep out everything after the cut
            return
        }
        bytes += size
        text.append(character)
    }
}

extension Unicode.Scalar {
    /// Controls (C0, DEL, C1), unpaired surrogates and unassigned code points: never text.
    var isControlLike: Bool {
        switch properties.generalCategory {
        case .control, .surrogate, .unassigned: true
        default: false
        }
    }
}
