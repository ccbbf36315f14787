import CacheGenReading

// A model's `"identity"`: the property that identifies its values (the runtime's
// `CachedEntity`); `SpecValidator` checks that it names a property of a fitting type.
extension SpecParser {
    /// `"identity": "id"`: the name as written, where it is written.
    package mutating func identity(_ node: JSONNode) -> Named? {
        string(node, "\"identity\"").map { Named(name: $0, location: node.location) }
    }
}
