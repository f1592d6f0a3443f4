import Foundation

/// Turns what a person types or a terminal pastes into a file path: drag-and-drop pastes
/// arrive quoted ('…' or "…"), backslash-escaped (My\ Photo.png) or as file:// URIs, and `~`
/// means the home directory. Pure: the home directory is passed in.
public enum PathInput {
    /// The path meant by `text`, or nil when nothing usable is left (empty, or a URI that is not file://).
    public static func resolve(_ text: String, home: String) -> String? {
        var raw = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !raw.isEmpty else { return nil }

        if raw.lowercased().hasPrefix("file://") {
            guard let url = URL(string: raw), url.isFileURL else {
                let path = String(raw.dropFirst("file://".count))
                return path.removingPercentEncoding.flatMap { $0.hasPrefix("/") ? $0 : nil }
            }
            let path = url.path
            return path.isEmpty ? nil : path
        }
        if raw.contains("://") { return nil }

        raw = unquote(raw)
        guard !raw.isEmpty else { return nil }
        if raw == "~" { return home }
        if raw.hasPrefix("~/") { return home + raw.dropFirst(1) }
        return raw
    }

    /// Removes one level of shell quoting: '…', "…" (with \" and \\ inside), and backslash escapes.
    static func unquote(_ text: String) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped {
                result.append(c)
                escaped = false
                continue
            }
            switch (quote, c) {
            case (nil, "\\"), ("\"", "\\"): escaped = true
            case (nil, "'"), (nil, "\""): quote = c
            case let (q?, c) where c == q: quote = nil
            default: result.append(c)
            }
        }
        if escaped { result.append("\\") }
        return result
    }

    /// The directory to list and the name prefix to complete for Tab completion of `text`.
    public static func completionQuery(_ text: String, home: String) -> (directory: String, prefix: String)? {
        guard let path = resolve(text.isEmpty ? "./" : text, home: home) else { return nil }
        if path.hasSuffix("/") { return (path, "") }
        let url = URL(fileURLWithPath: path)
        let directory = path.contains("/") ? url.deletingLastPathComponent().path : "."
        return (directory.hasSuffix("/") ? directory : directory + "/", url.lastPathComponent)
    }

    /// The longest common prefix of `names` that extends `prefix`, or nil when there is nothing to add.
    public static func commonCompletion(of names: [String], prefix: String) -> String? {
        let matches = names.filter { $0.hasPrefix(prefix) }
        guard var common = matches.first else { return nil }
        for name in matches.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        return common.count > prefix.count ? common : nil
    }
}
