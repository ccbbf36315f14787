import Foundation

@_spi(Generated)
extension KeyedEncodingContainer where Key == WireKey {
    /// Writes a generated model's `additionalProperties` after its properties: each key in
    /// sorted order, so equal values give equal bytes (and cache keys), except those `known`
    /// names, which are the properties' own.
    public mutating func encodeAdditionalProperties<Value: Encodable>(_ values: [String: Value], excluding known: Set<String>)
        throws
    {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) where !known.contains(key) {
            try encode(value, forKey: WireKey(key))
        }
    }
}
