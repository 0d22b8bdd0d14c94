/// `strftime_now(format)`: Python's `datetime.now().strftime(format)` on Linux, which hands the
/// format to glibc in the C locale. Supports glibc's conversions and its `-` (no padding),
/// `_` (space padding) and `0` flags; an unknown conversion is copied as written.
enum Strftime {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y - 1 : y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func format(_ format: String, _ t: JinjaDateTime) -> String {
        let weekday = ((days(t.year, t.month, t.day) % 7) + 11) % 7  // 0 = Sunday
        let yearDay = days(t.year, t.month, t.day) - days(t.year, 1, 1)  // 0-based
        let month = min(max(t.month, 1), 12) - 1
        let hour12 = t.hour % 12 == 0 ? 12 : t.hour % 12
        // ISO 8601 week-based year and week.
        let isoWeekday = weekday == 0 ? 7 : weekday
        var isoYear = t.year
        var isoWeek = (yearDay - isoWeekday + 10) / 7
        func weeks(_ y: Int) -> Int {
            let p = { (y: Int) in (y + y / 4 - y / 100 + y / 400) % 7 }
            return 52 + ((p(y) == 4 || p(y - 1) == 3) ? 1 : 0)
        }
        if isoWeek < 1 { isoYear -= 1; isoWeek = weeks(isoYear) } else if isoWeek > weeks(t.year) { isoYear += 1; isoWeek = 1 }

        var out = ""
        let c = Array(format.unicodeScalars)
        var i = 0
        while i < c.count {
            guard c[i] == "%", i + 1 < c.count else { out.unicodeScalars.append(c[i]); i += 1; continue }
            var j = i + 1
            var flag: Unicode.Scalar?
            if "-_0^#".unicodeScalars.contains(c[j]), j + 1 < c.count { flag = c[j]; j += 1 }
            func num(_ v: Int, _ width: Int, pad: Unicode.Scalar = "0") -> String {
                let s = String(v)
                let p: Unicode.Scalar? = flag == "-" ? nil : flag == "_" ? " " : flag == "0" ? "0" : pad
                guard let p, s.count < width else { return s }
                return String(repeating: String(p), count: width - s.count) + s
            }
            func text(_ s: String) -> String { flag == "^" ? s.uppercased() : s }
            let piece: String? = switch c[j] {
            case "a": text(String(weekdays[weekday].prefix(3)))
            case "A": text(weekdays[weekday])
            case "w": num(weekday, 1)
            case "u": num(isoWeekday, 1)
            case "d": num(t.day, 2)
            case "e": num(t.day, 2, pad: " ")
            case "b", "h": text(String(months[month].prefix(3)))
            case "B": text(months[month])
            case "m": num(t.month, 2)
            case "y": num(((t.year % 100) + 100) % 100, 2)
            case "Y": num(t.year, 1)
            case "C": num(t.year / 100, 2)
            case "G": num(isoYear, 1)
            case "g": num(((isoYear % 100) + 100) % 100, 2)
            case "V": num(isoWeek, 2)
            case "H": num(t.hour, 2)
            case "k": num(t.hour, 2, pad: " ")
            case "I": num(hour12, 2)
            case "l": num(hour12, 2, pad: " ")
            case "M": num(t.minute, 2)
            case "S": num(t.second, 2)
            case "f": num(t.microsecond, 6)
            case "p": t.hour < 12 ? "AM" : "PM"
            case "P": t.hour < 12 ? "am" : "pm"
            case "j": num(yearDay + 1, 3)
            case "U": num((yearDay + 7 - weekday) / 7, 2)
            case "W": num((yearDay + 7 - (weekday + 6) % 7) / 7, 2)
            case "c": Self.format("%a %b %e %H:%M:%S %Y", t)
            case "x", "D": Self.format("%m/%d/%y", t)
            case "X", "T": Self.format("%H:%M:%S", t)
            case "F": Self.format("%Y-%m-%d", t)
            case "R": Self.format("%H:%M", t)
            case "r": Self.format("%I:%M:%S %p", t)
            case "n": "\n"
            case "t": "\t"
            case "%": "%"
            case "z", "Z": ""
            default: nil
            }
            if let piece {
                out += piece
                i = j + 1
            } else {
                out.unicodeScalars.append(c[i])
                i += 1
            }
        }
        return out
    }
}
