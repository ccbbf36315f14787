import CachedClientRuntime
import Foundation
import Testing

/// The golden client of `schema-reach.openapi.yaml` compiled and run: schemas reached by JSON
/// pointers into other schemas' inline parts are the same types as the parts themselves, and
/// unions of them (the shape whose cases once hid their own types, `_0(_0)`) decode each value
/// as the first case that fits and encode it back.
@Suite struct GeneratedSchemaReachTests {
    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    private func encoded<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func aUnionOfPointersIntoAResponsesOneOfDecodesEachVariant() throws {
        #expect(try decode(CreateAnyRequest.self, #"{"id": "p1"}"#) == .shippedResponseVariant(ShippedResponseVariant(id: "p1")))
        #expect(try decode(CreateAnyRequest.self, #"{"ids": ["a", "b"]}"#) == .shippedResponseVariant2(ShippedResponseVariant2(ids: ["a", "b"])))
        #expect(try decode(CreateAnyRequest.self, #"{"batch": 3}"#) == .shippedResponseBatch(ShippedResponseBatch(batch: 3)))
        #expect(try decode(CreateAnyRequest.self, "7") == .other(7))
        #expect(try encoded(CreateAnyRequest.shippedResponseVariant2(ShippedResponseVariant2(ids: ["a"]))) == #"{"ids":["a"]}"#)
    }

    @Test func thePointerAndThePartItPointsToAreOneType() throws {
        // The body of createOne is the response's first variant, so one value is both.
        let first = ShippedResponseVariant(id: "p2")
        let asResponse: ShippedResponse = .object(first)
        let asBody: CreateAnyRequest = .shippedResponseVariant(first)
        #expect(try encoded(asResponse) == encoded(asBody))
        // Through `~1` and `~0`, `items` and `additionalProperties`: the component's own parts.
        let escaped = PutEscapedRequest(slashed: ParcelAB(slash: true), tilded: ParcelCD(tilde: false), tag: ParcelTagsItem(label: "x"))
        let parcel = Parcel(aB: escaped.slashed, cD: escaped.tilded, tags: escaped.tag.map { [$0] })
        #expect(try encoded(parcel) == #"{"a/b":{"slash":true},"c~d":{"tilde":false},"tags":[{"label":"x"}]}"#)
    }

    @Test func casesNamedAfterADigitOrAKeywordDecode() throws {
        #expect(try decode(Ranked.self, #"{"rank": 1}"#) == .value1st(_1st(rank: 1)))
        #expect(try decode(Ranked.self, #"{"fallback": true}"#) == .defaultValue(RankedDefault(fallback: true)))
        #expect(try decode(Ranked.self, #""top""#) == .selfValue("top"))
    }

    @Test func aPointerIntoAnotherFilesUnionIsItsVariant() throws {
        let page = try decode(LedgerResponse.self, #"{"values": [1, 2]}"#)
        #expect(page == .object(LedgerResponseVariant(values: [1, 2])))
        let body = PostElsewhereRequest(shared: LedgerResponseVariant(values: [3]))
        #expect(try encoded(body) == #"{"shared":{"values":[3]}}"#)
    }
}
