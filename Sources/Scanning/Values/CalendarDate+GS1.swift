extension CalendarDate {
    /// The full year of a two-digit GS1 year: the one within 49 years before and 50 years after
    /// `today`'s year (GS1 General Specifications 7.12, "Determination of century in dates").
    public static func gs1Year(_ twoDigitYear: Int, today: CalendarDate) -> Int {
        let century = today.year - today.year % 100
        let difference = twoDigitYear - today.year % 100
        if difference > 50 { return century - 100 + twoDigitYear }
        if difference < -49 { return century + 100 + twoDigitYear }
        return century + twoDigitYear
    }

    /// Reads YYMMDD (or YYYYMMDD) digits; with `dayMayBeZero`, day 00 means the month's last day.
    static func gs1(digits: String, dayMayBeZero: Bool, today: CalendarDate) -> Result<CalendarDate, GS1Error.DateProblem> {
        guard let numbers = CheckDigit.digits(digits), numbers.count == 6 || numbers.count == 8 else {
            return .failure(.day(0))
        }
        let yearDigits = numbers.count - 4
        let yearNumber = numbers.prefix(yearDigits).reduce(0) { $0 * 10 + $1 }
        let month = numbers[yearDigits] * 10 + numbers[yearDigits + 1]
        let day = numbers[yearDigits + 2] * 10 + numbers[yearDigits + 3]
        let year = yearDigits == 2 ? gs1Year(yearNumber, today: today) : yearNumber
        guard (1...12).contains(month) else { return .failure(.month(month)) }
        let monthLength = daysIn(month: month, year: year)
        if day == 0 && dayMayBeZero {
            return .success(CalendarDate(year: year, month: month, day: monthLength))
        }
        guard (1...31).contains(day) else { return .failure(.day(day)) }
        guard day <= monthLength else { return .failure(.dayNotInMonth(day: day, month: month, year: year)) }
        return .success(CalendarDate(year: year, month: month, day: day))
    }
}
