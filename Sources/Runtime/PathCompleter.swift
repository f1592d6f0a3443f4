import CaptureMode
import Domain
import Foundation

/// Tab completion for the photo path field: lists the typed path's directory and extends the
/// name to the longest common prefix; when that adds nothing, the candidates are shown instead.
struct PathCompleter {
    let home: String

    func complete(_ text: String) -> CaptureAction {
        guard let query = PathInput.completionQuery(text, home: home),
            let names = try? FileManager.default.contentsOfDirectory(atPath: query.directory)
        else { return .pathCompleted(text: nil, candidates: []) }
        let matches = names.filter { $0.hasPrefix(query.prefix) && (!$0.hasPrefix(".") || query.prefix.hasPrefix(".")) }.sorted()
        let base = query.directory == "./" && !text.hasPrefix("./") ? "" : displayDirectory(of: text)
        if matches.count == 1, let name = matches.first {
            let isDirectory = (try? FileManager.default.attributesOfItem(atPath: query.directory + name)[.type] as? FileAttributeType) == .typeDirectory
            return .pathCompleted(text: base + Self.escape(name) + (isDirectory ? "/" : ""), candidates: [])
        }
        if let common = PathInput.commonCompletion(of: matches, prefix: query.prefix) {
            return .pathCompleted(text: base + Self.escape(common), candidates: matches)
        }
        return .pathCompleted(text: nil, candidates: matches)
    }

    /// The directory part exactly as the user typed it, so "~/Pic" completes to "~/Pictures/".
    private func displayDirectory(of text: String) -> String {
        guard let slash = text.lastIndex(of: "/") else { return "" }
        return String(text[...slash])
    }

    /// Backslash-escapes what a shell would split or expand, as terminals do on drag and drop
    /// (the upload completer too, so the field reads the name back whole).
    static func escape(_ name: String) -> String {
        var out = ""
        for c in name {
            if " '\"\\()&;$`".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
