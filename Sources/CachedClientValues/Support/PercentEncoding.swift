/// Percent-encoding for paths, queries and keys, in one place.
///
/// Only RFC 3986 unreserved characters stay as they are, so the result is the same on
/// every platform and never needs a second pass.
package enum PercentEncoding {
    /// Encodes every byte of the UTF-8 form except `A–Z a–z 0–9 - . _ ~`, as `%XX` with
    /// uppercase hex digits.
    package static func encode(_ text: String) -> String {
        // Runs for every key parameter of every call, so text that needs no encoding (most
        // ids and numbers) is returned as it is after one pass over its bytes, and the rest
        // is written straight into a string of its final size.
        var text = text
        let encoded = text.withUTF8 { bytes -> String? in
            var escapes = 0
            for byte in bytes where !isUnreserved(byte) { escapes += 1 }
            guard escapes > 0 else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + 2 * escapes) { buffer in
                var count = 0
                for byte in bytes {
                    if isUnreserved(byte) {
                        buffer[count] = byte
                        count += 1
                    } else {
                        buffer[count] = UInt8(ascii: "%")
                        buffer[count + 1] = hexDigit(byte >> 4)
                        buffer[count + 2] = hexDigit(byte & 0xF)
                        count += 3
                    }
                }
                return count
            }
        }
        return encoded ?? text
    }

    /// Encodes one path segment: as `encode`, so `/` is `%2F`, and a whole `.` or `..` is
    /// `%2E` / `%2E%2E` (RFC 3986 §3.3), so no value can climb out of its segment.
    package static func encodePathSegment(_ text: String) -> String {
        switch text {
        case ".": "%2E"
        case "..": "%2E%2E"
        default: encode(text)
        }
    }

    /// Encodes a name or value of an `application/x-www-form-urlencoded` body as the
    /// WHATWG URL standard does: `A–Z a–z 0–9 * - . _` stay, space is `+`, every other
    /// byte `%XX`.
    package static func encodeFormComponent(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                result.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "%")))
                result.unicodeScalars.append(Unicode.Scalar(hexDigit(byte >> 4)))
                result.unicodeScalars.append(Unicode.Scalar(hexDigit(byte & 0xF)))
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
