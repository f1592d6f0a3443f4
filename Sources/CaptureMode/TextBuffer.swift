import Foundation

/// An editable text with a cursor, counted in grapheme clusters so CJK and emoji edit as one unit.
/// Single-line buffers drop newlines; multi-line buffers keep them.
public struct TextBuffer: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Index into `characters` where the next insertion goes (0...count).
    public private(set) var cursor: Int
    public let isMultiline: Bool
    public let limit: Int

    public init(_ text: String = "", multiline: Bool = false, limit: Int = 10_000) {
        self.characters = []
        self.cursor = 0
        self.isMultiline = multiline
        self.limit = limit
        insert(text)
    }

    public var text: String { String(characters) }
    public var isEmpty: Bool { characters.isEmpty }

    /// Lines of the text (at least one, possibly empty).
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Cursor as (line, column) in grapheme clusters.
    public var cursorPosition: (line: Int, column: Int) {
        var line = 0, column = 0
        for c in characters[..<cursor] {
            if c == "\n" {
                line += 1
                column = 0
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    public enum Motion: Equatable, Sendable { case left, right, up, down, home, end }

    public mutating func insert(_ string: String) {
        var incoming = string.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if !isMultiline { incoming = incoming.replacingOccurrences(of: "\n", with: " ") }
        let room = max(0, limit - characters.count)
        // Re-segment around the insertion: a combining mark typed on its own joins the
        // character before it, so the buffer always holds whole grapheme clusters.
        let before = String(characters[..<cursor]) + String(incoming.prefix(room))
        let after = String(characters[cursor...])
        characters = Array(before + after)
        cursor = min(before.count, characters.count)
    }

    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Ctrl-U, as in a shell: deletes from the start of the cursor's line up to the cursor.
    public mutating func deleteToLineStart() {
        let start = lineStart(of: cursor)
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    public mutating func clear() {
        characters = []
        cursor = 0
    }

    public mutating func move(_ motion: Motion) {
        switch motion {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = lineStart(of: cursor)
        case .end: cursor = lineEnd(of: cursor)
        case .up:
            let start = lineStart(of: cursor)
            guard start > 0 else {
                cursor = 0
                return
            }
            let column = cursor - start
            let previousStart = lineStart(of: start - 1)
            cursor = min(previousStart + column, start - 1)
        case .down:
            let end = lineEnd(of: cursor)
            guard end < characters.count else {
                cursor = characters.count
                return
            }
            let column = cursor - lineStart(of: cursor)
            let nextStart = end + 1
            cursor = min(nextStart + column, lineEnd(of: nextStart))
        }
    }

    private func lineStart(of index: Int) -> Int {
        var i = index
        while i > 0 && characters[i - 1] != "\n" { i -= 1 }
        return i
    }

    private func lineEnd(of index: Int) -> Int {
        var i = index
        while i < characters.count && characters[i] != "\n" { i += 1 }
        return i
    }
}
