import Foundation
import PropertyBased
import Scanning
import Testing

@Suite("GS1 dates")
struct CalendarDateTests {
    @Test(
        "two-digit years fall within 49 years back and 50 ahead of today",
        arguments: [
            (2025, 25, 2025), (2025, 75, 2075), (2025, 76, 1976), (2025, 0, 2000), (2025, 99, 1999),
            (2080, 30, 2130), (2080, 31, 2031), (1999, 49, 2049), (1999, 48, 2048), (1999, 50, 1950),
        ])
    func century(todayYear: Int, twoDigits: Int, year: Int) {
        #expect(CalendarDate.gs1Year(twoDigits, today: CalendarDate(year: todayYear, month: 1, day: 1)) == year)
    }

    @Test("the century rule holds for any year and any two digits")
    func centuryProperty() async {
        await propertyCheck(count: 1000, input: Gen.int(in: 1900...2300), Gen.int(in: 0...99)) { todayYear, twoDigits in
            let year = CalendarDate.gs1Year(twoDigits, today: CalendarDate(year: todayYear, month: 6, day: 1))
            #expect(year % 100 == twoDigits)
            #expect((todayYear - 49)...(todayYear + 50) ~= year)
        }
    }

    @Test("the options' today decides the century of an expiry date")
    func todayIsInjected() {
        var later = options()
        later.today = CalendarDate(year: 2090, month: 1, day: 1)
        #expect(parse("(17)301231").expiry == CalendarDate(year: 2030, month: 12, day: 31))
        #expect(parse("(17)301231", later).expiry == CalendarDate(year: 2130, month: 12, day: 31))
    }

    @Test("leap years and month lengths")
    func monthLengths() {
        #expect(CalendarDate.daysIn(month: 2, year: 2024) == 29)
        #expect(CalendarDate.daysIn(month: 2, year: 2100) == 28)
        #expect(CalendarDate.daysIn(month: 2, year: 2000) == 29)
        #expect(CalendarDate.daysIn(month: 4, year: 2023) == 30)
        #expect(CalendarDate.daysIn(month: 13, year: 2023) == 0)
        #expect(CalendarDate(year: 2021, month: 2, day: 29).isValid == false)
    }

    @Test("dates print as ISO 8601 and sort by day")
    func printing() {
        #expect(CalendarDate(year: 2020, month: 12, day: 25).description == "2020-12-25")
        #expect(CalendarDate(year: 999, month: 1, day: 2).description == "0999-01-02")
        #expect(CalendarDate(year: 2020, month: 12, day: 25) < CalendarDate(year: 2021, month: 1, day: 1))
    }

    @Test("today is read in the given time zone")
    func today() {
        let utc = TimeZone(identifier: "UTC") ?? .current
        // 2024-03-01 00:30 UTC.
        #expect(CalendarDate.today(in: utc, now: Date(timeIntervalSince1970: 1_709_253_000)) == CalendarDate(year: 2024, month: 3, day: 1))
    }
}
