import Foundation

/// The rules for a person's name, and where the default one comes from.
public enum PersonName {
    /// The longest name kept (the schema's CHECK allows 1 to 64 characters).
    public static let maximumLength = 64

    /// Why `name` cannot name a person, or nil when it can.
    public static func problem(with name: String) -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "a name cannot be empty." }
        if name.count > maximumLength { return "a name can have at most \(maximumLength) characters." }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }) {
            return "a name cannot hold control characters."
        }
        return nil
    }

    /// The Unix user's login name (getpwuid), else "uid N".
    public static func unixUser() -> String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            let text = String(cString: name)
            if problem(with: text) == nil { return text }
        }
        return "uid \(getuid())"
    }

    /// A folder name for `name` that no two names share and that is never `.`, `..` or a path:
    /// letters, digits, `-` and `_` kept, every other byte written `%XX`.
    public static func folderName(_ name: String) -> String {
        let out = name.addingPercentEncoding(withAllowedCharacters: folderCharacters) ?? ""
        return out.isEmpty ? "%" : out
    }

    private static let folderCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
}
