import Foundation

/// The `Cache-Control` directives a private client cache acts on (RFC 9111 §5.2.2, RFC 5861).
///
/// Directive names are case-insensitive, values may be tokens or quoted strings, and
/// several field lines arrive joined with commas, which the grammar already allows. Of a
/// directive given twice the first counts. `public`, `private`, `s-maxage` and
/// `proxy-revalidate` concern shared caches and are ignored, as are unknown extensions.
package struct CacheControl: Equatable {
    /// `max-age`; an invalid value counts as 0, since RFC 9111 §4.2.1 advises treating
    /// invalid freshness information as stale.
    package var maxAge: Double?
    /// `no-store`: the response must not be kept.
    package var noStore = false
    /// `no-cache`, only the unqualified form: `no-cache="Set-Cookie"` restricts header fields this
    /// client never stores, so it leaves the body usable.
    package var noCache = false
    /// `must-revalidate`: once stale, not used without the server's confirmation.
    package var mustRevalidate = false
    /// `stale-if-error`; an invalid value is ignored.
    package var staleIfError: Double?
    /// `stale-while-revalidate`; an invalid value is ignored.
    package var staleWhileRevalidate: Double?

    /// The largest delta-seconds kept: RFC 9111 §1.2.2 caps larger values at 2^31.
    package static let maximumDelta: Double = 2_147_483_648

    /// Parses one field value (or several joined with commas).
    package init(_ value: String) {
        var seen: Set<String> = []
        for (name, argument) in Self.directives(value) where seen.insert(name).inserted {
            switch name {
            case "max-age": maxAge = argument.flatMap(Self.deltaSeconds) ?? 0
            case "no-store": noStore = true
            case "no-cache": noCache = argument == nil
            case "must-revalidate": mustRevalidate = true
            case "stale-if-error": staleIfError = argument.flatMap(Self.deltaSeconds)
            case "stale-while-revalidate": staleWhileRevalidate = argument.flatMap(Self.deltaSeconds)
            default: break
            }
        }
    }

    /// `1*DIGIT` after trimming spaces, capped at `maximumDelta`; `nil` for anything else
    /// (a sign, a fraction, an empty value).
    package static func deltaSeconds(_ text: String) -> Double? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return min(Double(digits) ?? maximumDelta, maximumDelta)
    }

    /// Splits a field value into lower-cased names and unquoted arguments; commas inside a
    /// quoted string do not split it.
    package static func directives(_ value: String) -> [(name: String, argument: String?)] {
        var result: [(name: String, argument: String?)] = []
        var scalars = value.unicodeScalars[...]
        while !scalars.isEmpty {
            var name = ""
            while let scalar = scalars.first, scalar != ",", scalar != "=" {
                name.unicodeScalars.append(scalar)
                scalars.removeFirst()
            }
            var argument: String?
            if scalars.first == "=" {
                scalars.removeFirst()
                while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
                var text = ""
                if scalars.first == "\"" {
                    scalars.removeFirst()
                    while let scalar = scalars.popFirst(), scalar != "\"" {
                        if scalar == "\\", let escaped = scalars.popFirst() {
                            text.unicodeScalars.append(escaped)
                        } else {
                            text.unicodeScalars.append(scalar)
                        }
                    }
                    // Anything between the closing quote and the next comma is malformed; skip it.
                    while let scalar = scalars.first, scalar != "," { scalars.removeFirst() }
                } else {
                    while let scalar = scalars.first, scalar != "," {
                        text.unicodeScalars.append(scalar)
                        scalars.removeFirst()
                    }
                    text = text.trimmingCharacters(in: .whitespaces)
                }
                argument = text
            }
            if scalars.first == "," { scalars.removeFirst() }
            let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
            if !trimmed.isEmpty { result.append((trimmed, argument)) }
        }
        return result
    }
}
