#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How ``JinjaTemplate/render(_:options:)`` treats its variables and the clock.
public struct JinjaRenderOptions: Sendable {
    /// Variables whose strings count as template text rather than data (see ``JinjaOrigin``):
    /// values that come from the model file, like the template itself. Default: `bos_token`,
    /// `eos_token`.
    public var trustedVariables: Set<String>
    /// The time `strftime_now(format)` formats; nil reads the local clock at render time.
    public var now: JinjaDateTime?

    public init(trustedVariables: Set<String> = ["bos_token", "eos_token"], now: JinjaDateTime? = nil) {
        self.trustedVariables = trustedVariables
        self.now = now
    }
}

/// A local date and time for `strftime_now` (no time zone: Python's `datetime.now()` is naive).
public struct JinjaDateTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var microsecond: Int

    /// - Precondition: fields in their calendar ranges (month 1-12, day 1-31, hour 0-23...);
    ///   out-of-range fields format as given.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, microsecond: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
    }

    /// The current local time from the C library.
    public static func localNow() -> JinjaDateTime {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        return JinjaDateTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                             hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}
