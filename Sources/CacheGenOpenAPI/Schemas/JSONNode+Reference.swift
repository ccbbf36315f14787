import CacheGenReading

/// Discriminator mappings name schemas by `$ref` text.
extension JSONNode {
    /// `{"$ref": text}` at the same place, for mapping values written as bare references.
    package var asReference: JSONNode {
        guard let text = stringValue, text.contains("#") || text.contains(".") else {
            return JSONNode(value: .object([]), location: location)
        }
        return JSONNode(value: .object([JSONMember(key: "$ref", keyLocation: location, value: self)]), location: location)
    }
}
