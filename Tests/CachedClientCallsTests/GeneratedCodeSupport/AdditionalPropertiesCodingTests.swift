import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// The two calls a generated model with `additionalProperties` makes: every key its
/// properties do not name decoded into the dictionary, and written back after them, a
/// property's own key never written twice.
@Suite struct AdditionalPropertiesCodingTests {
    /// A model as cachegen writes one: `id`, and every other key as a number or null.
    struct Scores: Codable, Equatable {
        var id: String
        var additionalProperties: [String: Double?]

        init(id: String, additionalProperties: [String: Double?]) {
            self.id = id
            self.additionalProperties = additionalProperties
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: WireKey.self)
            id = try container.decode(String.self, forKey: WireKey("id"))
            additionalProperties = try container.decodeAdditionalProperties(Double?.self, excluding: ["id"])
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: WireKey.self)
            try container.encode(id, forKey: WireKey("id"))
            try container.encodeAdditionalProperties(additionalProperties, excluding: ["id"])
        }
    }

    @Test func otherKeysAreReadAndWrittenBack() throws {
        let scores = try JSONDecoder().decode(Scores.self, from: Data(#"{"id": "s1", "math": 0.5, "art": null}"#.utf8))
        #expect(scores == Scores(id: "s1", additionalProperties: ["math": 0.5, "art": Double?.none]))
        // JSONEncoder keeps no order of its own, so the keys are sorted to compare.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let written = String(decoding: try encoder.encode(Scores(id: "s2", additionalProperties: ["z": 1, "id": 9, "a": nil])), as: UTF8.self)
        #expect(written == #"{"a":null,"id":"s2","z":1}"#)
    }
}
