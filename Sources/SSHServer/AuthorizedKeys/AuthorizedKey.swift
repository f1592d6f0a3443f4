import NIOSSH

/// One accepted line of an authorized_keys file: a key and the person it belongs to.
public struct AuthorizedKey: Sendable, Equatable {
    /// The person's name: the line's comment.
    public let name: String
    public let fingerprint: SSHKeyFingerprint
    /// The line number in the file (1-based).
    public let line: Int
    let publicKey: NIOSSHPublicKey
}

/// A line the server cannot honour, and why; such a line lets nobody in.
public struct AuthorizedKeysProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let sentence: String

    public var description: String { "line \(line): \(sentence)" }
}

/// The outcome of reading an authorized_keys file.
public struct AuthorizedKeysReport: Sendable, Equatable {
    public let path: String
    public let keys: [AuthorizedKey]
    public let problems: [AuthorizedKeysProblem]

    /// Lines for the person starting the server: a summary, then each problem with its line number.
    public var summaryLines: [String] {
        let people = Set(keys.map(\.name)).count
        var lines = ["\(path): \(keys.count) key\(keys.count == 1 ? "" : "s") for \(people) \(people == 1 ? "person" : "people")"
            + (problems.isEmpty ? "" : ", \(problems.count) line\(problems.count == 1 ? "" : "s") refused")]
        lines += problems.map { "\(path) \($0)" }
        return lines
    }
}
