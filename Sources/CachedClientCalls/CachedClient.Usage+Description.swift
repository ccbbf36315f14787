import Foundation

/// `12 entries, 1.4 MB`: what a settings screen or a log line shows of `CachedClient.usage()`.
extension CachedClient.Usage: CustomStringConvertible {
    /// The entry count and the size in bytes, KB or MB (powers of 1,000, one decimal).
    public var description: String {
        let count = entries == 1 ? "1 entry" : "\(entries) entries"
        let size: String
        switch bytes {
        case ..<1_000: size = "\(bytes) bytes"
        case ..<1_000_000: size = Self.oneDecimal(Double(bytes) / 1_000) + " KB"
        default: size = Self.oneDecimal(Double(bytes) / 1_000_000) + " MB"
        }
        return "\(count), \(size)"
    }

    /// `1.4`, without a locale: the same text on every machine.
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
