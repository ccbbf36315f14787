@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The golden client of `schema-shapes.openapi.yaml` run: unions without a discriminator
/// decoded in the document's order and encoded as they were decoded, a shape the document
/// does not list kept as JSON, free-form objects round-tripped, keys beside the properties
/// kept, and parameters, bodies and streams sent as the document says.
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

    private func images(_ transport: StubTransport) -> LiveShapesImagesRepository {
        LiveShapesImagesRepository(client: CachedClient(baseURL: URL(string: "https://shapes.test")!, store: MemoryCacheStore(), transport: transport))
    }

    /// A union path parameter as its case's text, an array of enums in a header joined by
    /// commas, dictionaries as `deepObject` and exploded `form`, an object's properties as
    /// items of their own, an array of unions repeated, and as JSON text both a parameter
    /// serialized as `content` and an array of objects, which no style writes as text.
    @Test func parametersThatAreNotOneScalarAreSentAsTheDocumentSays() async throws {
        let transport = StubTransport { _ in .json(#"{"id": 7}"#) }
        let images = images(transport)
        _ = try await images.getImage(
            imageId: .integer(7), metadata: ["b": "2", "a": "x y"], labels: ["team": "ios"], created: ShapesGetImageCreated(gt: 10),
            sizes: [.string(.small), .integer(640)], filter: ShapesGetImageFilter(field: "tag", values: ["a"]),
            where: [ShapesGetImageWhereItem(scope: "team", since: Date(timeIntervalSince1970: 0))], beta: [.multiAgentV1, .toolsV2],
            policy: .networkOnly)
        _ = try await images.getImage(imageId: .string("ubuntu-24-04"), policy: .networkOnly)
        let sent = transport.requests
        #expect(
            sent.map(\.url.absoluteString) == [
                "https://shapes.test/images/7?metadata%5Ba%5D=x%20y&metadata%5Bb%5D=2&team=ios&gt=10&sizes=small&sizes=640"
                    + "&filter=%7B%22field%22%3A%22tag%22%2C%22values%22%3A%5B%22a%22%5D%7D"
                    + "&where=%5B%7B%22scope%22%3A%22team%22%2C%22since%22%3A%221970-01-01T00%3A00%3A00Z%22%7D%5D",
                "https://shapes.test/images/ubuntu-24-04",
            ])
        #expect(sent.first?.headers["beta"] == "multi_agent=v1,tools=v2")
        #expect(sent.last?.headers["beta"] == nil)
    }

    /// Keys the properties do not name are kept in `additionalProperties` and written back;
    /// a binary string inside JSON is text, and enum values with no letter or digit have cases.
    @Test func keysBesideThePropertiesAreKeptAndWrittenBack() throws {
        let text = #"{"id": 7, "thumbnail": "iVBORw0KGgo=", "sign": "+", "alt": "A cat", "credit": "Ann"}"#
        let image = try decode(ShapesImage.self, text)
        #expect(image == ShapesImage(id: 7, thumbnail: "iVBORw0KGgo=", sign: .plus, additionalProperties: ["alt": "A cat", "credit": "Ann"]))
        #expect(try roundTrips(ShapesImage.self, text))
        #expect(try decode(ShapesImage.self, #"{"id": 1, "sign": ""}"#).sign == .empty)
        // A key a property has is the property's, whatever the dictionary holds.
        let encoded = try canonical(JSONEncoder().encode(ShapesImage(id: 2, additionalProperties: ["id": "9", "z": "last"])))
        #expect(encoded == #"{"id":2,"z":"last"}"#)
    }

    /// Bytes the document takes as `image/*` go with the type the caller names, else
    /// `application/octet-stream`; an upload only multipart can carry goes as multipart.
    @Test func bodiesGoInTheMediaTypeTheCallerOrTheDocumentNames() async throws {
        let transport = StubTransport { request in
            request.method == "POST" ? .json(#"{"id": 3}"#) : HTTPResponse(statusCode: 204, headers: [:], body: Data())
        }
        let images = images(transport)
        try await images.putImageBytes(imageId: "a", body: Data([0x89, 0x50]), contentType: "image/png")
        try await images.putImageBytes(imageId: "b", body: Data([0x00]))
        let uploaded = try await images.uploadImage(
            body: ShapesUploadImageRequest(file: MultipartFile(data: Data("GIF89a".utf8), filename: "a.gif", contentType: "image/gif")))
        #expect(uploaded.id == 3)
        let sent = transport.requests
        #expect(sent.map { $0.headers["Content-Type"] ?? "" }.prefix(2) == ["image/png", "application/octet-stream"])
        #expect(sent.last?.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        let upload = String(decoding: sent.last?.body ?? Data(), as: UTF8.self)
        #expect(upload.contains("Content-Disposition: form-data; name=\"file\"; filename=\"a.gif\"\r\nContent-Type: image/gif\r\n\r\nGIF89a\r\n"))
    }

    /// The event-stream method sends `stream: true` whatever the body says; the plain method
    /// sends the body as the caller made it.
    @Test func theEventStreamMethodAsksTheServerToStream() async throws {
        let transport = StubTransport { _ in .json(#"{"text": "whole"}"#) }
        transport.respondStreaming { _ in .chunks(["data: {\"text\": \"pi\"}\n\n", "data: {\"text\": \"ece\"}\n\n"]) }
        let images = images(transport)
        #expect(try await images.complete(body: ShapesCompleteRequest(prompt: "hi")) == ShapesTextPart(text: "whole"))
        var pieces: [String] = []
        for try await event in images.completeEvents(body: ShapesCompleteRequest(prompt: "hi", stream: false)) { pieces.append(event.value.text) }
        #expect(pieces == ["pi", "ece"])
        let bodies = try transport.requests.map { try canonical($0.body ?? Data()) }
        #expect(bodies == [#"{"prompt":"hi"}"#, #"{"prompt":"hi","stream":true}"#])
    }
}
