/// The outcome of reading an authorized_keys file.
public struct AuthorizedKeysReport: Sendable, Equatable {
    public let path: String
    public let keys: [AuthorizedKey]
    public let problems: [AuthorizedKeysProblem]

    /// Lines for the person starting the server: a summary, then each problem with its line number.
    public var summaryLines: [String] {
        let people = Set(keys.map(\.name)).count
        let summary =
            "\(path): \(keys.count) key\(keys.count == 1 ? "" : "s") for \(people) \(people == 1 ? "person" : "people")"
            + (problems.isEmpty ? "" : ", \(problems.count) line\(problems.count == 1 ? "" : "s") refused")
        return [summary] + problems.map { "\(path) \($0)" }
    }
}
