/// `812 bytes`, `1.4 KB`, `12.0 MB`: sizes as `CachedClient.Usage` and `CacheInspection`
/// print them, the same text on every machine.
package enum ByteCountText {
    /// The size in bytes, KB or MB (powers of 1,000, one decimal), without a locale.
    package static func format(_ bytes: Int) -> String {
        switch bytes {
        case ..<1_000: "\(bytes) bytes"
        case ..<1_000_000: oneDecimal(Double(bytes) / 1_000) + " KB"
        default: oneDecimal(Double(bytes) / 1_000_000) + " MB"
        }
    }

    /// `1.4`.
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
