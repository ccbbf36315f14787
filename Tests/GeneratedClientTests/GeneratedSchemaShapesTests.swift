@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The golden client of `schema-shapes.openapi.yaml` run: unions without a discriminator
/// decoded in the document's order and encoded as they were decoded, a shape the document
/// does not list kept as JSON, and free-form objects round-tripped.
@Suite struct GeneratedSchemaShapesTests {
    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// The value as JSON with sorted keys, to compare what two encodings mean.
    private func canonical(_ data: Data) throws -> String {
        let value = try JSONDecoder().decode(JSONValue.self, from: data)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func roundTrips<T: Codable>(_ type: T.Type, _ text: String) throws -> Bool {
        let value = try decode(type, text)
        return try canonical(JSONEncoder().encode(value)) == canonical(Data(text.utf8))
    }

    @Test func contentIsTextOrPartsAndEncodesBackAsItCame() throws {
        let text = #"{"id": "m1", "content": "hello"}"#
        #expect(try decode(ShapesMessage.self, text).content == .string("hello"))
        #expect(try roundTrips(ShapesMessage.self, text))

        let parts = #"{"id": "m2", "content": [{"text": "hi"}, {"imageUrl": "https://x.test/a.png", "detail": "low"}]}"#
        let message = try decode(ShapesMessage.self, parts)
        #expect(
            message.content
                == .parts([.textPart(ShapesTextPart(text: "hi")), .imagePart(ShapesImagePart(imageUrl: "https://x.test/a.png", detail: "low"))]))
        #expect(try roundTrips(ShapesMessage.self, parts))
    }

    @Test func aShapeTheDocumentDoesNotListIsKeptAsJSON() throws {
        let text = #"{"id": "m3", "content": [{"audio": {"seconds": 3}}], "attachment": 42}"#
        let message = try decode(ShapesMessage.self, text)
        #expect(message.content == .parts([.other(["audio": ["seconds": 3]])]))
        #expect(message.attachment == .other(42))
        #expect(try roundTrips(ShapesMessage.self, text))
    }

    @Test func theFirstVariantThatDecodesWins() throws {
        #expect(try decode(ShapesSettings.self, "3") == .integer(3))
        #expect(try decode(ShapesSettings.self, "3.5") == .number(3.5))
        #expect(try decode(ShapesSettings.self, "true") == .boolean(true))
        #expect(try decode(ShapesSettings.self, #"["a"]"#) == .strings(["a"]))
        #expect(try decode(ShapesSettings.self, #"{"k": [1, null]}"#) == .dictionary(["k": [1, nil]]))
        #expect(try decode(ShapesSettings.self, #""text""#) == .other("text"))
        #expect(try decode(ShapesMessageAttachment.self, #"{"fileId": "f1"}"#) == .object(ShapesMessageAttachmentObject(fileId: "f1")))
        #expect(try decode(ShapesMessageAttachment.self, #""none""#) == .none(.none))
        // An enum variant takes only the values it lists; its unknown case would take any string.
        #expect(try decode(ShapesMessageAttachment.self, #""later""#) == .other("later"))
    }

    @Test func freeFormObjectsAndAnnotatedReferencesRoundTrip() throws {
        let text = #"""
            {"id": "m4", "content": "x", "metadata": {"plan": "pro", "seats": 9007199254740993, "tags": ["a"], "nested": {"ok": true, "ratio": 0.25}},
             "attributes": {"a": null, "b": [1, 2]}, "scores": {"x": 0.5}, "extra": [1, "two"], "status": "sent",
             "author": {"name": "Ann"}, "nickname": null, "summary": {"words": 12}}
            """#
        let message = try decode(ShapesMessage.self, text)
        #expect(message.metadata?["seats"] == .integer(9_007_199_254_740_993))
        #expect(message.metadata?["nested"]?["ratio"]?.doubleValue == 0.25)
        #expect(message.attributes == ["a": .null, "b": [1, 2]])
        #expect(message.status == .sent)
        #expect(message.author == ShapesUser(name: "Ann"))
        #expect(message.nickname == nil)
        #expect(message.summary == ShapesExtendedPart(words: 12))
        #expect(try roundTrips(ShapesMessage.self, text.replacingOccurrences(of: #", "nickname": null"#, with: "")))
    }

    @Test func aMessageGoesOutAndComesBackThroughTheClient() async throws {
        let sent = ShapesMessage(id: "m5", content: .parts([.textPart(ShapesTextPart(text: "hi"))]), metadata: ["k": "v"])
        let transport = StubTransport { request in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: request.body ?? Data())
        }
        let client = CachedClient(baseURL: URL(string: "https://shapes.test")!, store: MemoryCacheStore(), transport: transport)
        let messages = LiveShapesMessagesRepository(client: client)
        let received = try await messages.createMessage(body: sent)
        #expect(received == sent)
        #expect(try canonical(transport.requests.first?.body ?? Data()) == #"{"content":[{"text":"hi"}],"id":"m5","metadata":{"k":"v"}}"#)
    }
}
