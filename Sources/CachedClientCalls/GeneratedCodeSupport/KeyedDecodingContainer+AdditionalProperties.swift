import Foundation

@_spi(Generated)
extension KeyedDecodingContainer where Key == WireKey {
    /// Every key of the object that `known` (the model's properties) does not name, its
    /// value decoded as `Value`: a generated model's `additionalProperties`.
    public func decodeAdditionalProperties<Value: Decodable>(_ type: Value.Type, excluding known: Set<String>) throws
        -> [String: Value]
    {
        var values: [String: Value] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            values[key.stringValue] = try decode(Value.self, forKey: key)
        }
        return values
    }
}
