@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Testing

/// cachegen's request and response (HTTPTypes has types of the same names).
typealias Request = CachedClientRuntime.HTTPRequest
typealias Response = CachedClientRuntime.HTTPResponse

/// The request a stub transport saw, kept for the test to read.
final class SentRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Request?
    var request: Request? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// cachegen's multipart writer read by swift-openapi-runtime's parser, and
/// swift-openapi-runtime's serializer read by cachegen's client into a typed model.
@Suite struct MultipartInteropTests {
    struct Meta: Codable, Hashable, Sendable {
        var width: Int
        var label: String
    }

    /// A model as cachegen generates one for a multipart body: a property per part.
    struct Upload: Codable, Hashable, Sendable {
        var title: String
        var tags: [String]
        var meta: Meta
        var file: MultipartFile
        var note: String?
    }

    /// Bytes with what a multipart reader must not take for a delimiter.
    static let binary = Data([0, 1, 2, 13, 10, 45, 45, 13, 10, 255, 254, 13, 10])

    static let upload = Upload(
        title: "Café au lait", tags: ["a", "b c"], meta: Meta(width: 640, label: "x\"y"),
        file: MultipartFile(data: binary, filename: "photo 1.png", contentType: "image/png", headers: ["X-Checksum": "abc123"]),
        note: nil)

    static let converter = Converter(configuration: Configuration())

    /// The parts of a multipart body as swift-openapi-runtime reads them: name, file name,
    /// header fields and bytes.
    static func readWithOpenAPIRuntime(_ body: Data, boundary: String) async throws -> [(name: String?, filename: String?, fields: HTTPFields, bytes: Data)] {
        let parts = try converter.getResponseBodyAsMultipart(
            MultipartBody<MultipartRawPart>.self, from: HTTPBody(body), transforming: { $0 }, boundary: boundary,
            allowsUnknownParts: true, requiredExactlyOncePartNames: [], requiredAtLeastOncePartNames: [], atMostOncePartNames: [],
            zeroOrMoreTimesPartNames: [], decoding: { $0 })
        var result: [(name: String?, filename: String?, fields: HTTPFields, bytes: Data)] = []
        for try await part in parts {
            let bytes = try await Data(collecting: part.body, upTo: .max)
            result.append((part.name, part.filename, part.headerFields, bytes))
        }
        return result
    }

    @Test func whatCachegenWritesSwiftOpenAPIRuntimeReads() async throws {
        let sent = SentRequest()
        let transport = StubTransport { request in
            sent.request = request
            return Response(statusCode: 204)
        }
        let client = CachedClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        var request = EndpointRequest(method: "POST", path: "/uploads")
        request.setMultipartBody(Self.upload, isKey: false)
        let endpoint = Endpoint(name: "Uploads.upload", cache: nil, format: .data)
        let _: CachedValue<Data> = try await client.value(for: request, endpoint: endpoint)

        let request_ = try #require(sent.request)
        let contentType = try #require(request_.headers["Content-Type"])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let parts = try await Self.readWithOpenAPIRuntime(try #require(request_.body), boundary: boundary)

        #expect(parts.map(\.name) == ["title", "tags", "tags", "meta", "file"])
        #expect(parts.map(\.filename) == [nil, nil, nil, nil, "photo 1.png"])
        #expect(String(decoding: parts[0].bytes, as: UTF8.self) == "Café au lait")
        #expect(parts[1].bytes == Data("a".utf8))
        #expect(parts[2].bytes == Data("b c".utf8))
        #expect(parts[3].fields[.contentType] == "application/json")
        #expect(try JSONDecoder().decode(Meta.self, from: parts[3].bytes) == Self.upload.meta)
        #expect(parts[4].fields[.contentType] == "image/png")
        #expect(parts[4].fields[try #require(HTTPField.Name("X-Checksum"))] == "abc123")
        #expect(parts[4].bytes == Self.binary)
    }

    @Test func whatSwiftOpenAPIRuntimeWritesCachegenReadsIntoItsModelAndItsStore() async throws {
        func part(_ name: String, filename: String? = nil, fields: [(String, String)] = [], _ bytes: Data) throws -> MultipartRawPart {
            var headerFields = HTTPFields()
            for (field, value) in fields { headerFields[try #require(HTTPField.Name(field))] = value }
            return MultipartRawPart(name: name, filename: filename, headerFields: headerFields, body: HTTPBody(bytes))
        }
        let meta = try JSONEncoder().encode(Self.upload.meta)
        let pretty = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: meta), options: .prettyPrinted)
        let raw: [MultipartRawPart] = [
            try part("title", fields: [("Content-Type", "text/plain; charset=utf-8")], Data("Café au lait".utf8)),
            try part("tags", Data("a".utf8)),
            try part("meta", fields: [("Content-Type", "application/json")], pretty),
            try part("tags", Data("b c".utf8)),
            try part("file", filename: "photo 1.png", fields: [("Content-Type", "image/png"), ("X-Checksum", "abc123")], Self.binary),
        ]
        var headerFields = HTTPFields()
        let body = try Self.converter.setRequiredRequestBodyAsMultipart(
            MultipartBody(raw), headerFields: &headerFields, contentType: "multipart/form-data", allowsUnknownParts: true,
            requiredExactlyOncePartNames: [], requiredAtLeastOncePartNames: [], atMostOncePartNames: [], zeroOrMoreTimesPartNames: [],
            encoding: { $0 })
        let bytes = try await Data(collecting: body, upTo: .max)
        let contentType = try #require(headerFields[.contentType])

        let store = MemoryCacheStore()
        let transport = StubTransport(response: Response(statusCode: 200, headers: ["Content-Type": contentType], body: bytes))
        let endpoint = Endpoint(
            name: "Uploads.get", cache: CacheRule(ttl: 60, maxStale: 3_600), shape: "upload-1", format: .multipart,
            accept: "multipart/form-data")
        let request = EndpointRequest(method: "GET", path: "/uploads/1")
        let writer = CachedClient(baseURL: URL(string: "https://api.example.com")!, store: store, transport: transport)
        let fresh: CachedValue<Upload> = try await writer.value(for: request, endpoint: endpoint)
        await writer.flush()
        // swift-openapi-runtime writes header names in lower case (and a part's Content-Length,
        // which is framing, not one of the part's fields).
        #expect(!fresh.isCached)
        #expect(fresh.value.file.header("X-Checksum") == "abc123")
        #expect(fresh.value.file.headers == ["x-checksum": "abc123"])
        var expected = Self.upload
        expected.file.headers = ["x-checksum": "abc123"]
        #expect(fresh.value == expected)

        // Another client over the same store (no memory layer in common) reads it back offline.
        transport.goOffline()
        let cached: CachedValue<Upload> = try await CachedClient(
            baseURL: URL(string: "https://api.example.com")!, store: store, transport: transport
        ).value(for: request, endpoint: endpoint, policy: .cacheOnly)
        #expect(cached.value == expected)
        #expect(cached.isCached)
    }

    /// A model as cachegen generates one when the document declares header fields for
    /// parts that are not files (`encoding.<part>.headers`): `MultipartValue`.
    struct Note: Codable, Hashable, Sendable {
        var text: MultipartValue<String>
        var meta: MultipartValue<Meta>
        var labels: [MultipartValue<String>]
    }

    @Test func aTextPartsHeaderFieldCrossesSwiftOpenAPIRuntimeBothWays() async throws {
        // cachegen writes, swift-openapi-runtime reads.
        let note = Note(
            text: MultipartValue("Grüße", headers: ["X-Log-Type": "structured"]),
            meta: MultipartValue(Meta(width: 1, label: "m"), headers: ["X-Name-Locale": "de-DE"]),
            labels: [MultipartValue("a", headers: ["X-Order": "1"]), MultipartValue("b", headers: ["X-Order": "2"])])
        let sent = SentRequest()
        let transport = StubTransport { request in
            sent.request = request
            return Response(statusCode: 204)
        }
        let client = CachedClient(baseURL: URL(string: "https://api.example.com")!, transport: transport)
        var request = EndpointRequest(method: "POST", path: "/notes")
        request.setMultipartBody(note, fields: [BodyField("meta", contentType: "application/json")], isKey: false)
        let _: CachedValue<Data> = try await client.value(for: request, endpoint: Endpoint(name: "Notes.post", cache: nil, format: .data))
        let written = try #require(sent.request)
        let contentType = try #require(written.headers["Content-Type"])
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let parts = try await Self.readWithOpenAPIRuntime(try #require(written.body), boundary: boundary)

        let logType = try #require(HTTPField.Name("X-Log-Type"))
        let order = try #require(HTTPField.Name("X-Order"))
        #expect(parts.map(\.name) == ["text", "meta", "labels", "labels"])
        #expect(parts[0].fields[logType] == "structured")
        #expect(String(decoding: parts[0].bytes, as: UTF8.self) == "Grüße")
        #expect(parts[1].fields[try #require(HTTPField.Name("X-Name-Locale"))] == "de-DE")
        #expect(try JSONDecoder().decode(Meta.self, from: parts[1].bytes) == note.meta.value)
        #expect(parts[2...].map { $0.fields[order] } == ["1", "2"])

        // swift-openapi-runtime writes, cachegen reads.
        func part(_ name: String, fields: [(String, String)], _ bytes: Data) throws -> MultipartRawPart {
            var headerFields = HTTPFields()
            for (field, value) in fields { headerFields[try #require(HTTPField.Name(field))] = value }
            return MultipartRawPart(name: name, filename: nil, headerFields: headerFields, body: HTTPBody(bytes))
        }
        let raw: [MultipartRawPart] = [
            try part("text", fields: [("Content-Type", "text/plain"), ("X-Log-Type", "unstructured")], Data("Grüße".utf8)),
            try part("meta", fields: [("Content-Type", "application/json"), ("X-Name-Locale", "fr")], try JSONEncoder().encode(note.meta.value)),
            try part("labels", fields: [("X-Order", "1")], Data("a".utf8)),
        ]
        var headerFields = HTTPFields()
        let body = try Self.converter.setRequiredRequestBodyAsMultipart(
            MultipartBody(raw), headerFields: &headerFields, contentType: "multipart/form-data", allowsUnknownParts: true,
            requiredExactlyOncePartNames: [], requiredAtLeastOncePartNames: [], atMostOncePartNames: [], zeroOrMoreTimesPartNames: [],
            encoding: { $0 })
        let answer = Response(
            statusCode: 200, headers: ["Content-Type": try #require(headerFields[.contentType])], body: try await Data(collecting: body, upTo: .max))
        let reader = CachedClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(response: answer))
        let read: CachedValue<Note> = try await reader.value(
            for: EndpointRequest(method: "GET", path: "/notes/1"),
            endpoint: Endpoint(name: "Notes.get", cache: nil, format: .multipart, accept: "multipart/form-data"))
        // swift-openapi-runtime writes header names in lower case.
        #expect(read.value.text == MultipartValue("Grüße", headers: ["x-log-type": "unstructured"]))
        #expect(read.value.text.header("X-Log-Type") == "unstructured")
        #expect(read.value.meta == MultipartValue(note.meta.value, headers: ["x-name-locale": "fr"]))
        #expect(read.value.labels == [MultipartValue("a", headers: ["x-order": "1"])])
    }
}
