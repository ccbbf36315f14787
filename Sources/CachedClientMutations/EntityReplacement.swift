@_spi(Generated) import CachedClientValues
import Foundation

/// One entity's new version, and how to put it in cached JSON: every object whose identity
/// key has the entity's id and that decodes as the entity's type is replaced by it.
package struct EntityReplacement: Sendable {
    /// The identity's JSON name and value.
    package let key: String
    package let id: JSONValue
    /// The new version, as JSON.
    package let object: JSONValue
    /// The entity's type: two replacements of one entity have the same type and id.
    package let entityType: ObjectIdentifier
    /// How the entity was written; values it is put in are written and read with it too.
    package let coding: JSONCoding
    /// The id's text as it appears in JSON, for a quick look at a body before it is parsed;
    /// `nil` when it may be escaped there.
    package let needle: Data?
    /// Whether `other` is a version of the same entity (same type, same id).
    package func isSameEntity(as other: EntityReplacement) -> Bool {
        entityType == other.entityType && key == other.key && id == other.id
    }

    /// Whether a JSON object is a version of the entity's type.
    private let isEntity: @Sendable (JSONValue) -> Bool

    /// The replacement of `entity`, or `nil` when it does not encode as an object with a
    /// string or number at its identity key.
    package init?<E: CachedEntity>(_ entity: E, coding: JSONCoding) {
        guard let data = try? coding.makeEncoder().encode(entity),
            let object = try? JSONDecoder().decode(JSONValue.self, from: data),
            let id = object[E.identityKey]
        else { return nil }
        switch id {
        case .string(let text):
            let plain = text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0 != "/" }
            needle = plain ? Data(text.utf8) : nil
        case .integer(let number): needle = Data(String(number).utf8)
        case .unsignedInteger(let number): needle = Data(String(number).utf8)
        case .number: needle = nil
        default: return nil
        }
        key = E.identityKey
        entityType = ObjectIdentifier(E.self)
        self.coding = coding
        self.id = id
        self.object = object
        isEntity = { candidate in
            guard let bytes = try? JSONEncoder().encode(candidate) else { return false }
            return (try? coding.makeDecoder().decode(E.self, from: bytes)) != nil
        }
    }

    /// `value` with every version of the entity in it replaced, through its JSON (written and
    /// read with `coding`, so it comes back as it was elsewhere); `nil` when it holds none, or
    /// is not `Codable`.
    package func replaced(in value: any Sendable) -> Any? {
        guard let encodable = value as? any Encodable, let type = type(of: value) as? any Decodable.Type,
            let data = try? coding.makeEncoder().encode(encodable),
            let changed = Self.apply([self], to: data)
        else { return nil }
        return Self.decode(type, from: changed, coding)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data, _ coding: JSONCoding) -> Any? {
        try? coding.makeDecoder().decode(type, from: data)
    }

    /// `body` with every version of the entity replaced, or `nil` when it holds none that
    /// differs (or is not JSON).
    package static func apply(_ replacements: [EntityReplacement], to body: Data) -> Data? {
        let wanted = replacements.filter { replacement in
            replacement.needle.map { body.range(of: $0) != nil } ?? true
        }
        guard !wanted.isEmpty, let value = try? JSONDecoder().decode(JSONValue.self, from: body) else { return nil }
        var changed = false
        let replaced = replacing(value, wanted, changed: &changed)
        guard changed else { return nil }
        return try? JSONEncoder().encode(replaced)
    }

    private static func replacing(_ value: JSONValue, _ replacements: [EntityReplacement], changed: inout Bool) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map { replacing($0, replacements, changed: &changed) })
        case .object(let members):
            for replacement in replacements where members[replacement.key] == replacement.id {
                guard value != replacement.object, replacement.isEntity(value) else { continue }
                changed = true
                return replacement.object
            }
            return .object(members.mapValues { replacing($0, replacements, changed: &changed) })
        default:
            return value
        }
    }
}
