import Domain

/// One event of a cast: at `time` seconds from the start, output was drawn or the terminal's
/// size changed. Input (`"i"`) and marker (`"m"`) events are read and skipped.
public struct CastEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `[t, "o", text]`: what the program wrote to its terminal.
        case output(String)
        /// `[t, "r", "COLSxROWS"]`.
        case resize(columns: Int, rows: Int)
    }

    public var time: Double
    public var kind: Kind

    /// The event as one JSON line, with its newline.
    public var line: String {
        switch kind {
        case .output(let text):
            "[\(CastTime.text(time)), \"o\", \(JSONString.quoted(text))]\n"
        case .resize(let columns, let rows):
            "[\(CastTime.text(time)), \"r\", \"\(columns)x\(rows)\"]\n"
        }
    }
}
