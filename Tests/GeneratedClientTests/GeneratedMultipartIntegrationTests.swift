@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client generated from `multipart.openapi.yaml` (golden `Multipart/`) against
/// `Tests/Fixtures/fixture_server.py`: a multipart answer read part by part into its model,
/// cached and read back offline with its date; a truncated one a decoding error that says
/// where; an upload whose file part carries a header field, and a note whose text, JSON and
/// repeated parts carry header fields (`MultipartValue`), each read by Python's MIME parser
/// and sent back as a multipart answer the client reads into its model.
@Suite("Integration: multipart responses against the fixture server", .timeLimit(.minutes(1)))
struct GeneratedMultipartIntegrationTests {
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "cachegen-multipart-\(UUID().uuidString)")
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    typealias Clock = GeneratedOpenAPIClientTests.Clock

    let clock = Clock()
    static let boundary = "srv-Boundary-1"
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x2D, 0x2D, 0x00, 0xFF])

    /// The album's body as a server writes it: a text part, a number, a date, an enum's value,
    /// a file with a header field, a JSON part, a repeated part; no `caption`.
    static var albumBody: Data {
        func part(_ disposition: String, _ headers: [String] = [], _ body: Data) -> Data {
            let head = (["--\(boundary)", "Content-Disposition: form-data; \(disposition)"] + headers + ["", ""]).joined(separator: "\r\n")
            return Data(head.utf8) + body + Data("\r\n".utf8)
        }
        var body = Data("preamble\r\n".utf8)
        body += part("name=\"title\"", ["Content-Type: text/plain; charset=utf-8"], Data("Sommer 🌞".utf8))
        body += part("name=\"count\"", [], Data("2".utf8))
        body += part("name=\"released\"", [], Data("2024-05-01T10:00:00Z".utf8))
        body += part("name=\"kind\"", [], Data("photo".utf8))
        body += part("name=\"cover\"; filename=\"cover.png\"", ["Content-Type: image/png", "X-Checksum: 9f2c"], png)
        body += part("name=\"meta\"", ["Content-Type: application/json"], Data("{\"width\": 640, \"height\": 480}".utf8))
        body += part("name=\"tags\"", [], Data("beach".utf8))
        body += part("name=\"tags\"", [], Data("sun".utf8))
        return body + Data("--\(boundary)--\r\n".utf8)
    }

    static let album = MultipartAlbum(
        title: "Sommer 🌞", count: 2, released: Date(timeIntervalSince1970: 1_714_557_600), kind: .photo,
        cover: MultipartFile(data: png, filename: "cover.png", contentType: "image/png", headers: ["X-Checksum": "9f2c"]),
        meta: MultipartMeta(width: 640, height: 480), tags: ["beach", "sun"])

    func albums(_ server: FixtureServer, folder: Folder) throws -> LiveMultipartAlbumsRepository {
        let client = CachedClient(
            baseURL: server.baseURL, store: try FileCacheStore(directory: folder.url, now: { [clock] in clock.now }),
            transport: URLSessionTransport(timeout: 10), partition: "alice", now: { [clock] in clock.now })
        return LiveMultipartAlbumsRepository(client: client)
    }

    @Test func aMultipartAnswerIsReadIntoItsModelCachedAndReadOfflineWithItsDate() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let contentType = "multipart/form-data; boundary=\"\(Self.boundary)\""
        try await server.setRoute("/multipart/albums/1", headers: ["Content-Type": contentType], bytes: Self.albumBody)
        let albums = try albums(server, folder: folder)

        #expect(try await albums.getAlbum(id: "1") == .fresh(value: Self.album))
        let storedAt = clock.now
        #expect(try await server.requests().map { $0.header("Accept") } == ["multipart/form-data"])
        await albums.client.flush()
        clock.advance(3_600)
        server.stop()
        // Connection refused: networkFirst answers from the store, read from its bytes again.
        #expect(try await albums.getAlbum(id: "1") == .cached(value: Self.album, date: storedAt))
    }

    @Test func aTruncatedMultipartAnswerIsADecodingErrorThatSaysWhere() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let cut = Self.albumBody.prefix(Self.albumBody.count - "\r\n--\(Self.boundary)--\r\n".utf8.count)
        try await server.setRoute(
            "/multipart/albums/2", headers: ["Content-Type": "multipart/form-data; boundary=\(Self.boundary)"], bytes: cut)
        let albums = try albums(server, folder: folder)

        await #expect(
            throws: CachedClientError.decodingFailed(
                endpoint: "MultipartAlbumsRepository.getAlbum", reason: "part 8 ends without a delimiter after it (the body is truncated)")
        ) { _ = try await albums.getAlbum(id: "2") }
        // Nothing was stored: the store has no answer to show.
        await #expect(throws: CachedClientError.self) { _ = try await albums.getAlbum(id: "2", policy: .cacheOnly) }
    }

    @Test func anUploadWithAPartsHeaderFieldCrossesAnotherMIMEParserBothWays() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setMultipartEchoRoute("/multipart/uploads")
        let albums = try albums(server, folder: folder)
        let file = MultipartFile(data: Self.png, filename: "pic 1.png", contentType: "image/png", headers: ["X-Checksum": "c0ffee"])

        let echo = try await albums.upload(body: MultipartUploadRequest(title: "Grüße", file: file, tags: ["a", "b c"]))

        #expect(echo == MultipartEcho(title: "Grüße", file: file, tags: ["a", "b c"]))
        let sent = try #require(try await server.requests().first)
        #expect(sent.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=cachegen-") == true)
    }

    @Test func aNotesTextJSONAndRepeatedPartsCarryTheirHeaderFieldsBothWays() async throws {
        let folder = Folder()
        defer { folder.remove() }
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await server.setMultipartEchoRoute("/multipart/notes")
        let albums = try albums(server, folder: folder)
        let note = MultipartNote(
            text: MultipartValue("Grüße", headers: ["X-Log-Type": "structured"]),
            meta: MultipartValue(MultipartMeta(width: 640, height: 480), headers: ["X-Name-Locale": "de-DE"]),
            labels: [MultipartValue("a", headers: ["X-Order": "1"]), MultipartValue("b c")])

        let echo = try await albums.postNote(body: note)

        #expect(echo == note)
        #expect(echo.text.header("x-log-type") == "structured")
        #expect(echo.meta?.value == MultipartMeta(width: 640, height: 480))
        let sent = try #require(try await server.requests().first)
        let body = sent.body
        #expect(body.contains("Content-Disposition: form-data; name=\"text\"\r\nX-Log-Type: structured\r\n\r\nGrüße\r\n"))
        #expect(body.contains("name=\"meta\"\r\nContent-Type: application/json\r\nX-Name-Locale: de-DE\r\n\r\n"))
    }
}
