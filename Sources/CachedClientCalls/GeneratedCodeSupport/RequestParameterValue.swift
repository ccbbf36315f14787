@_spi(Generated) import CachedClientValues
import Foundation

/// A value that can stand in a path segment, a query item or a header.
///
/// The text form is canonical (no locale, dates in UTC, Unicode NFC), so that the same
/// value always gives the same URL and the same cache key.
public protocol RequestParameterValue: Sendable {
    /// The canonical text of the value, before percent-encoding.
    var requestParameterText: String { get }
}

extension String: RequestParameterValue {
    /// The string in Unicode normal form C, so that "é" typed two ways is one key.
    /// ASCII text is already in that form and is returned as is: normalising costs more
    /// than the rest of building a key.
    public var requestParameterText: String {
        var text = self
        return text.withUTF8 { $0.allSatisfy { $0 < 0x80 } } ? text : precomposedStringWithCanonicalMapping
    }
}

extension Int: RequestParameterValue {
    /// The decimal digits.
    public var requestParameterText: String { String(self) }
}

extension Int64: RequestParameterValue {
    /// The decimal digits.
    public var requestParameterText: String { String(self) }
}

extension Double: RequestParameterValue {
    /// The shortest text that reads back as the same number; whole numbers without ".0".
    public var requestParameterText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}

extension Bool: RequestParameterValue {
    /// `true` or `false`.
    public var requestParameterText: String { self ? "true" : "false" }
}

extension Date: RequestParameterValue {
    /// ISO 8601 in UTC.
    public var requestParameterText: String { ISO8601.format(self) }
}

extension URL: RequestParameterValue {
    /// The absolute string.
    public var requestParameterText: String { absoluteString }
}

extension UUID: RequestParameterValue {
    /// The lowercase canonical form.
    public var requestParameterText: String { uuidString.lowercased() }
}

extension Array: RequestParameterValue where Element: RequestParameterValue {
    /// The elements joined by commas, the convention most APIs read.
    public var requestParameterText: String { map(\.requestParameterText).joined(separator: ",") }
}
