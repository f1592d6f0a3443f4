import Foundation

/// Dates as lists and details show them, computed in UTC so rendering stays a pure function.
public enum Age {
    /// "now", "5m", "3h", "2d", then "Jan 5" for most of a year, then just the year: at most
    /// six cells, so list columns stay narrow.
    public static func short(from date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date).rounded(.down))
        switch seconds {
        case ..<60: return "now"
        case ..<3_600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3_600)h"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d"
        case ..<(300 * 86_400):
            let day = calendar.dateComponents([.month, .day], from: date)
            return "\(monthNames[(day.month ?? 1) - 1]) \(day.day ?? 1)"
        default:
            return String(calendar.component(.year, from: date))
        }
    }

    /// The age as words for a detail: "just now", "5m ago", "Jan 5".
    public static func phrase(from date: Date, now: Date) -> String {
        let age = short(from: date, now: now)
        if age == "now" { return "just now" }
        return now.timeIntervalSince(date) < 7 * 86_400 ? "\(age) ago" : age
    }

    /// "2025-01-05 14:03 UTC".
    public static func timestamp(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)) UTC"
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
