import Foundation

/// A day on the Gregorian calendar, with no time and no time zone: what a GS1 date field means.
///
/// Kept apart from Foundation's `Date` on purpose: an expiry of 2020-12-25 is that day wherever the
/// label is read, and converting it to an instant would move it by a day in some time zones.
public struct CalendarDate: Equatable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// ISO 8601, `2020-12-25`.
    public var description: String {
        let yyyy = String(year).leftPadded(to: 4)
        return "\(yyyy)-\(String(month).leftPadded(to: 2))-\(String(day).leftPadded(to: 2))"
    }

    /// Whether this names a real day (month 1–12, day within that month).
    public var isValid: Bool {
        (1...12).contains(month) && (1...CalendarDate.daysIn(month: month, year: year)).contains(day)
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Today in the given time zone (the device's by default), for `ScanOptions.today`.
    public static func today(in timeZone: TimeZone = .current, now: Date = Date()) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return CalendarDate(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Days in a month (1–12) of a year; 0 for a month that does not exist.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: isLeap(year) ? 29 : 28
        default: 0
        }
    }

    /// English month names, for messages; no locale lookup so messages stay stable in tests.
    static func monthName(_ month: Int) -> String {
        let names = [
            "January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December",
        ]
        return (1...12).contains(month) ? names[month - 1] : "month \(month)"
    }
}
