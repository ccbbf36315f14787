/// Percent-encoding for paths, queries and keys, in one place.
///
/// Only RFC 3986 unreserved characters stay as they are, so the result is the same on
/// every platform and never needs a second pass.
enum PercentEncoding {
    /// Encodes every byte of the UTF-8 form except `A–Z a–z 0–9 - . _ ~`.
    ///
    /// Runs for every key parameter of every call, so text that needs no encoding (most
    /// ids and numbers) is returned as it is, and the rest is built as bytes.
    static func encode(_ text: String) -> String {
        let utf8 = text.utf8
        guard !utf8.allSatisfy(isUnreserved) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
