@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation
import Testing

/// The EdgeCases golden client's form, multipart and DELETE bodies sent to the fixture
/// server, which checks the exact bytes: generated code and runtime together.
@Suite("Integration: generated request bodies against the fixture server", .timeLimit(.minutes(1)))
struct GeneratedRequestBodyTests {
    let server: FixtureServer
    let prefix = "/bodies-\(UUID().uuidString.lowercased())"
    let edge: LiveEdgeRepository

    init() async throws {
        server = try await FixtureServer.shared
        let client = CachedClient(
            baseURL: URL(string: server.baseURL.absoluteString + prefix)!, store: MemoryCacheStore(),
            transport: URLSessionTransport(timeout: 10), partition: "alice")
        edge = LiveEdgeRepository(client: client)
    }

    static let shapes = Shapes(
        matrix: [[1, 2], [3]], nested: ["b": ["y": 2, "x": 1.5], "a": [:]], optionalList: ["p q", "r"],
        listOfOptionals: ["s", nil], when: Date(timeIntervalSince1970: 0), link: URL(string: "https://example.com/a?b=c")!,
        uid: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, byKind: ["k": .rB])

    @Test func aMultipartUploadSendsItsFilesFieldAndJSONPart() async throws {
        let attachment = Attachment(
            file: MultipartFile(data: Data("%PDF-1.7\r\n--x".utf8), filename: "report.pdf", contentType: "application/pdf"),
            caption: "Q3 report",
            extras: [MultipartFile(data: Data([0, 1, 2]), filename: "a.bin"), MultipartFile(data: Data(), filename: "empty")])
        try await server.setCheckingRoute(
            prefix + "/attachments", method: "POST",
            expect: .init(multipart: [
                .init(
                    headers: [#"Content-Disposition: form-data; name="file"; filename="report.pdf""#, "Content-Type: application/pdf"],
                    body: Data("%PDF-1.7\r\n--x".utf8)),
                .init(
                    headers: [#"Content-Disposition: form-data; name="caption""#, "Content-Type: text/plain; charset=utf-8"],
                    body: Data("Q3 report".utf8)),
                .init(
                    headers: [#"Content-Disposition: form-data; name="extras"; filename="a.bin""#, "Content-Type: application/octet-stream"],
                    body: Data([0, 1, 2])),
                .init(
                    headers: [#"Content-Disposition: form-data; name="extras"; filename="empty""#, "Content-Type: application/octet-stream"],
                    body: Data()),
            ]))

        try await edge.uploadAttachment(body: attachment)
    }

    /// Dates as the spec's `defaults.dates` (seconds), nested objects sorted and an empty one
    /// writing no field, nested arrays and the `byKind` field as JSON, as the spec's `fields` say.
    @Test func aCachedFormSearchIsSentExactlyAndItsKeyIsStable() async throws {
        let expected =
            "matrix=%5B1%2C2%5D&matrix=%5B3%5D&nested%5Bb%5D%5Bx%5D=1.5&nested%5Bb%5D%5By%5D=2"
            + "&optionalList=p+q%7Cr&listOfOptionals=s&when=0&link=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc"
            + "&uid=6F9619FF-8B86-D011-B42D-00C04FC964FF&byKind=%7B%22k%22%3A%22r%26b%22%7D"
        try await server.setRoute(prefix + "/shapes/search", method: "POST", json: [Self.shapes])

        let first = try await edge.searchShapes(body: Self.shapes, policy: .cacheFirst)
        let second = try await edge.searchShapes(body: Self.shapes, policy: .cacheFirst)

        let sent = try await server.requests().filter { $0.path == prefix + "/shapes/search" }
        #expect(sent.count == 1, "the second call is answered from the cache under the same key")
        #expect(sent.first?.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent.first?.body == expected)
        #expect(first.value == second.value)
    }

    @Test func aDeleteSendsItsJSONBody() async throws {
        let body = Shapes(
            matrix: [], nested: [:], listOfOptionals: [], when: Date(timeIntervalSince1970: 0),
            link: URL(string: "https://example.com")!, uid: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, byKind: [:])
        let json = #"{"byKind":{},"link":"https://example.com","listOfOptionals":[],"matrix":[],"nested":{},"uid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","when":0}"#
        try await server.setCheckingRoute(
            prefix + "/shapes", method: "DELETE", expect: .init(contentType: "application/json", body: Data(json.utf8)))

        try await edge.deleteShapes(body: body)
    }
}
