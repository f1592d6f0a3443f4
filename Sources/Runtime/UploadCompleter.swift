import CaptureMode
import Domain
import Foundation
import Storage

/// Tab completion for the photo field under `tabshell serve`: only the names in the person's
/// upload folder. Anything that looks like a path (`/`, `~`, `..`, a leading dot) completes to
/// nothing, so the field never lists a folder of the server.
struct UploadCompleter {
    let uploads: UploadFolder

    func complete(_ text: String) -> CaptureAction {
        let typed = text.isEmpty ? "" : PathInput.resolve(text, home: "/nonexistent") ?? ""
        if text.hasPrefix("~") || typed.contains("/") || typed.hasPrefix(".") {
            return .pathCompleted(text: nil, candidates: [])
        }
        let matches = uploads.names().filter { $0.hasPrefix(typed) }
        if matches.count == 1, let name = matches.first {
            return .pathCompleted(text: PathCompleter.escape(name), candidates: [])
        }
        if let common = PathInput.commonCompletion(of: matches, prefix: typed) {
            return .pathCompleted(text: PathCompleter.escape(common), candidates: matches)
        }
        return .pathCompleted(text: nil, candidates: matches)
    }
}
