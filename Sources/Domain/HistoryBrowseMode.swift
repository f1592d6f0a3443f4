import Foundation

/// How History orders its records: newest first, or grouped (by the request they answer, by who
/// asked for them, or by kind) and newest first within each group.
public enum HistoryBrowseMode: String, Equatable, Sendable, CaseIterable {
    case all, byRequest, byRequester, byKind

    public var title: String {
        switch self {
        case .all: "All"
        case .byRequest: "By request"
        case .byRequester: "By requester"
        case .byKind: "By kind"
        }
    }

    /// The mode `b` switches to.
    public var next: HistoryBrowseMode {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}
