import Domain
import Foundation

/// The first line of an asciicast v2 file: the terminal's size when recording began, when it
/// began, and what it was (`env.TERM`).
public struct CastHeader: Sendable, Equatable {
    public static let version = 2

    public var width: Int
    public var height: Int
    /// Seconds since 1970 when the recording began.
    public var timestamp: Int?
    /// How long a pause the recording asks players to shorten to, in seconds.
    public var idleTimeLimit: Double?
    /// The recorded terminal's TERM (and SHELL, when a file has it).
    public var environment: [String: String]
    public var title: String?

    public init(
        width: Int, height: Int, timestamp: Int? = nil, idleTimeLimit: Double? = nil, environment: [String: String] = [:],
        title: String? = nil
    ) {
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.idleTimeLimit = idleTimeLimit
        self.environment = environment
        self.title = title
    }

    /// The header as one JSON line (with its newline), keys in a fixed order.
    public var line: String {
        var fields = ["\"version\": \(Self.version)", "\"width\": \(width)", "\"height\": \(height)"]
        if let timestamp { fields.append("\"timestamp\": \(timestamp)") }
        if let idleTimeLimit { fields.append("\"idle_time_limit\": \(CastTime.text(idleTimeLimit))") }
        if !environment.isEmpty {
            let pairs = environment.sorted { $0.key < $1.key }.map { "\(JSONString.quoted($0.key)): \(JSONString.quoted($0.value))" }
            fields.append("\"env\": {\(pairs.joined(separator: ", "))}")
        }
        if let title { fields.append("\"title\": \(JSONString.quoted(title))") }
        return "{" + fields.joined(separator: ", ") + "}\n"
    }
}

/// Event times as asciinema writes them: seconds with six decimals.
enum CastTime {
    static func text(_ seconds: Double) -> String {
        String(format: "%.6f", max(0, seconds))
    }
}
