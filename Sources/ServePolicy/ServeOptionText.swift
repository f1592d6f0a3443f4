import Foundation

/// `--listen`: `host:port`, `[v6]:port`, or `:port` (all addresses).
public struct ListenAddress: Equatable {
    public var host: String
    public var port: Int

    public init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard let port = Int(portPart), (0...65535).contains(port) else { return nil }
        self.host = hostPart.isEmpty ? "0.0.0.0" : String(hostPart)
        self.port = port
    }
}

/// `--max-startups`: `start:rate:full` as sshd reads it, or one number (a plain limit: start = full).
public struct MaxStartupsText: Equatable {
    public var start: Int
    public var rate: Int
    public var full: Int

    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.contains(nil) else { return nil }
        let numbers = parts.compactMap { $0 }
        switch numbers.count {
        case 1: (start, rate, full) = (numbers[0], 100, numbers[0])
        case 3: (start, rate, full) = (numbers[0], numbers[1], numbers[2])
        default: return nil
        }
        guard start >= 1, start <= full, (0...100).contains(rate) else { return nil }
    }
}

/// Times on the command line: `90s`, `10m`, `1h`, or a plain number of seconds.
public enum TimeText {
    public static func seconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let last = trimmed.last else { return nil }
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let unit = units[last], let value = Int(trimmed.dropLast()), value >= 0, value <= 365 * 86400 / unit {
            return value * unit
        }
        if let value = Int(trimmed), value >= 0, value <= 365 * 86400 { return value }
        return nil
    }
}
