import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Multipart responses decoded part by part into a model, as the part types say, through a
/// client and through the store: what is cached reads back as it was fetched.
@Suite struct MultipartResponseTests {
    enum Kind: String, Codable, Hashable { case photo, video }

    struct Meta: Codable, Hashable {
        var width: Int
        var taken: Date
    }

    /// A generated response model's shape: one property per part.
    struct Album: Codable, Hashable {
        var title: String
        var count: Int
        var kind: Kind
        var taken: Date
        var meta: Meta
        var cover: MultipartFile
        var thumbnail: Data
        var tags: [String]
        var sizes: [Int]
        var caption: String?
        var note: String?
    }

    static let boundary = "AaB03x"

    static func part(_ disposition: String, _ headers: [String] = [], _ body: String) -> String {
        (["--\(boundary)", "Content-Disposition: form-data; \(disposition)"] + headers + ["", body]).joined(separator: "\r\n") + "\r\n"
    }

    static let body: Data = {
        var text = part("name=\"title\"", ["Content-Type: text/plain; charset=iso-8859-1"], "Caf#")
        text += part("name=\"count\"", [], "3")
        text += part("name=\"kind\"", [], "video")
        text += part("name=\"taken\"", [], "2024-05-01T10:00:00Z")
        text += part("name=\"meta\"", ["Content-Type: application/json"], "{\"width\":640,\"taken\":\"2024-05-01T10:00:00Z\"}")
        text += part("name=\"cover\"; filename=\"cover.png\"", ["Content-Type: image/png", "X-Rate-Limit: 7"], "PNG\r\nbytes")
        text += part("name=\"thumbnail\"", ["Content-Type: application/octet-stream"], "thumb")
        text += part("name=\"tags\"", [], "a")
        text += part("name=\"unknown\"", [], "skipped")
        text += part("name=\"tags\"", [], "b")
        text += part("name=\"sizes\"", ["Content-Type: application/json"], "[1, 2]")
        text += part("name=\"caption\"", [], "")
        text += "--\(boundary)--\r\n"
        // The title's é is one Latin-1 byte.
        return Data(text.utf8.map { $0 == UInt8(ascii: "#") ? 0xE9 : $0 })
    }()

    static let album = Album(
        title: "Café", count: 3, kind: .video, taken: Date(timeIntervalSince1970: 1_714_557_600),
        meta: Meta(width: 640, taken: Date(timeIntervalSince1970: 1_714_557_600)),
        cover: MultipartFile(data: Data("PNG\r\nbytes".utf8), filename: "cover.png", contentType: "image/png", headers: ["X-Rate-Limit": "7"]),
        thumbnail: Data("thumb".utf8), tags: ["a", "b"], sizes: [1, 2], caption: "", note: nil)

    static func endpoint(cached: Bool = true) -> Endpoint {
        Endpoint(
            name: "AlbumRepository.getAlbum", cache: cached ? CacheRule(ttl: 60, maxStale: 3_600) : nil,
            coding: JSONCoding(dates: .iso8601), shape: "album-1", format: .multipart, accept: "multipart/form-data")
    }

    static let response = HTTPResponse(
        statusCode: 200, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)

    @Test func everyPartIsReadAsItsPropertysTypeSays() throws {
        let endpoint = Self.endpoint()
        let stored = try endpoint.storedBody(of: Self.response)
        #expect(try endpoint.decode(Album.self, from: stored) == Self.album)
    }

    @Test func aMissingRequiredPartAndAWrongPartAreDecodingErrors() throws {
        let endpoint = Self.endpoint()
        let missing = Data((Self.part("name=\"count\"", [], "3") + "--\(Self.boundary)--").utf8)
        let stored = Endpoint.storedMultipart(contentType: "multipart/form-data; boundary=\(Self.boundary)", body: missing)
        #expect(throws: CachedClientError.self) { _ = try endpoint.decode(Album.self, from: stored) }
        do {
            _ = try endpoint.decode(Album.self, from: stored)
        } catch let CachedClientError.decodingFailed(name, reason) {
            #expect(name == "AlbumRepository.getAlbum")
            #expect(reason.contains("title"), "\(reason)")
        }
        struct Counted: Decodable { var count: Int }
        let wrong = Data((Self.part("name=\"count\"", [], "three") + "--\(Self.boundary)--").utf8)
        let storedWrong = Endpoint.storedMultipart(contentType: "multipart/form-data; boundary=\(Self.boundary)", body: wrong)
        #expect(throws: CachedClientError.self) { _ = try endpoint.decode(Counted.self, from: storedWrong) }
    }

    @Test func aTruncatedBodyIsADecodingFailureThatSaysSo() throws {
        let endpoint = Self.endpoint()
        let cut = Self.body.prefix(Self.body.count - "\r\n--\(Self.boundary)--\r\n".utf8.count)
        let stored = Endpoint.storedMultipart(contentType: "multipart/form-data; boundary=\(Self.boundary)", body: cut)
        #expect(throws: CachedClientError.decodingFailed(endpoint: "AlbumRepository.getAlbum", reason: "part 12 ends without a delimiter after it (the body is truncated)")) {
            _ = try endpoint.decode(Album.self, from: stored)
        }
    }

    @Test func aResponseWithoutABoundaryIsADecodingFailure() {
        let endpoint = Self.endpoint()
        let plain = HTTPResponse(statusCode: 200, headers: ["Content-Type": "multipart/form-data"], body: Self.body)
        #expect(
            throws: CachedClientError.decodingFailed(
                endpoint: "AlbumRepository.getAlbum", reason: "the multipart response's Content-Type \"multipart/form-data\" names no boundary")
        ) { _ = try endpoint.storedBody(of: plain) }
        let none = HTTPResponse(statusCode: 200, body: Self.body)
        #expect(
            throws: CachedClientError.decodingFailed(
                endpoint: "AlbumRepository.getAlbum", reason: "the multipart response has no Content-Type, so no boundary")
        ) { _ = try endpoint.storedBody(of: none) }
    }

    @Test func aCachedMultipartAnswerReadsBackFromDiskAsItWasFetched() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-multipart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transport = StubTransport { _ in Self.response }
        let request = EndpointRequest(method: "GET", path: "/albums/1")
        let writer = CachedClient(baseURL: Fixtures.baseURL, store: try FileCacheStore(directory: directory), transport: transport)
        let fetched: CachedValue<Album> = try await writer.value(for: request, endpoint: Self.endpoint())
        #expect(fetched.value == Self.album)
        #expect(!fetched.isCached)
        #expect(transport.requests.first?.headers["Accept"] == "multipart/form-data")
        await writer.flush()

        // A relaunch: a new client over the same folder reads the stored entry, offline.
        transport.fail()
        let reader = CachedClient(baseURL: Fixtures.baseURL, store: try FileCacheStore(directory: directory), transport: transport)
        let cached: CachedValue<Album> = try await reader.value(for: request, endpoint: Self.endpoint(), policy: .cacheOnly)
        #expect(cached.value == Self.album)
        #expect(cached.isCached)
    }
}
