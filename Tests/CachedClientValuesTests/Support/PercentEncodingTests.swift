import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Only RFC 3986's unreserved characters stay as they are; every other byte of the UTF-8
/// form becomes `%XX` with uppercase hex digits.
@Suite("PercentEncoding")
struct PercentEncodingTests {
    @Test(arguments: [
        ("", ""),
        ("abcXYZ0189-._~", "abcXYZ0189-._~"),
        ("a b", "a%20b"),
        ("a/b?c=d&e#f", "a%2Fb%3Fc%3Dd%26e%23f"),
        ("100%", "100%25"),
        ("1+1", "1%2B1"),
        ("é", "%C3%A9"),
        ("😀", "%F0%9F%98%80"),
        ("\n\u{7F}", "%0A%7F"),
    ])
    func encodesEveryReservedByte(text: String, expected: String) {
        #expect(PercentEncoding.encode(text) == expected)
    }

    @Test func encodingTwiceEncodesThePercentSigns() {
        #expect(PercentEncoding.encode(PercentEncoding.encode("a b")) == "a%2520b")
    }
}
