import Foundation

/// Reads when a rate-limited request may be retried from a response's headers.
///
/// `retry-after` is either delta seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`,
/// RFC 9110 §10.2.3; the obsolete RFC 850 and asctime forms are read too). `retry-after-ms` (milliseconds,
/// sent by some OpenAI-compatible servers) wins when both are present, being the more precise.
package enum RetryAfter {
    /// The reset date from `headers` (names lowercased), or nil when none is sent or it does not parse.
    /// - Parameter now: the time the response arrived; delta values count from it.
    package static func resetDate(headers: [String: String], now: Date = Date()) -> Date? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), ms.isFinite, ms >= 0 {
            return now.addingTimeInterval(ms / 1000)
        }
        return headers["retry-after"].flatMap { parse($0, now: now) }
    }

    /// One `retry-after` value: delta seconds (a non-negative integer) or an HTTP date; nil otherwise.
    package static func parse(_ value: String, now: Date = Date()) -> Date? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            // Delta seconds; absurdly long values are capped at a year rather than rejected.
            return now.addingTimeInterval(Double(text).map { min($0, 365 * 86_400) } ?? 365 * 86_400)
        }
        for format in httpDateFormats {
            if let date = formatter(format).date(from: text) { return date }
        }
        return nil
    }

    /// IMF-fixdate, RFC 850, asctime (RFC 9110 §5.6.7).
    private static let httpDateFormats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    private static func formatter(_ format: String) -> DateFormatter {
        // A new formatter per call: DateFormatter is not Sendable, and this runs once per 429.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
