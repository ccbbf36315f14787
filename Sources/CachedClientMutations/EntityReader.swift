@_spi(Generated) import CachedClientValues
import Foundation

/// How a mutation's answer is read for entities (`CachedEntity`): the answer's type, kept
/// per endpoint by the client so that a replay, which has only the bytes, can read them too.
package struct EntityReader: Sendable {
    /// How the endpoint's JSON is written; the entities are found and written back with it.
    package let coding: JSONCoding
    private let read: @Sendable (Data) -> [any CachedEntity]

    package init<T: Decodable & Sendable>(_ type: T.Type, coding: JSONCoding) {
        self.coding = coding
        read = { body in
            guard let value = try? coding.makeDecoder().decode(T.self, from: body) else { return [] }
            return Self.entities(in: value)
        }
    }

    /// The entities a body of the endpoint holds: the answer itself or its elements.
    package func entities(in body: Data) -> [any CachedEntity] {
        read(body)
    }

    /// A reader for `T`, or `nil` when no value of it can be an entity or an array of them
    /// (so the answer is not decoded twice for nothing).
    package static func reader<T: Decodable & Sendable>(for type: T.Type, coding: JSONCoding) -> EntityReader? {
        guard type is any CachedEntity.Type || type is any EntityArray.Type else { return nil }
        return EntityReader(type, coding: coding)
    }

    /// The entities a decoded answer is: one, or an array of them; none otherwise.
    package static func entities(in value: Any) -> [any CachedEntity] {
        if let entity = value as? any CachedEntity { return [entity] }
        if let entities = value as? [any CachedEntity] { return entities }
        return []
    }
}

/// An array of entities, recognised by its type before any value is decoded.
package protocol EntityArray {}

extension Array: EntityArray where Element: CachedEntity {}
