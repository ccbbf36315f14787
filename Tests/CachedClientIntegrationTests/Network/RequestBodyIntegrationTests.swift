import FixtureServerSupport
import Foundation
import Testing

@_spi(Generated) @testable import CachedClientRuntime

/// Form, multipart, binary and DELETE bodies sent through `URLSessionTransport` to the
/// fixture server, whose routes check the exact bytes they receive and answer what they saw.
@Suite("Integration: request bodies over URLSession", .timeLimit(.minutes(1)))
struct RequestBodyIntegrationTests {
    typealias Setup = URLSessionIntegrationTests.Setup

    struct Card: Codable, Sendable {
        var number: String
        var expiry: Expiry
        var nickname: String?
    }

    struct Expiry: Codable, Sendable {
        var month: Int
        var year: Int
    }

    enum Interval: String, Codable, Sendable {
        case month, year
    }

    struct Charge: Codable, Sendable {
        var amount: Int
        var description: String
        var card: Card
        var tags: [String]
        var interval: Interval
        var capture: Bool
        var metadata: [String: String]
        var statementDescriptor: String?
        var expand: [String]
        var channels: [String]
        var createdAt: Date
    }

    struct Meta: Codable, Sendable {
        var label: String
        var sizes: [Int]
    }

    struct Upload: Codable, Sendable {
        var file: MultipartFile
        var purpose: String
        var meta: Meta
        var attachments: [MultipartFile]
        var note: String?
    }

    /// Calls `request` and decodes what the route saw; a 422 (a mismatch) fails with the reason.
    static func send(_ request: EndpointRequest, _ setup: Setup, coding: JSONCoding = JSONCoding()) async throws
        -> FixtureServer.SeenBody
    {
        let endpoint = Endpoint(name: "Bodies.send", cache: nil, coding: coding)
        do {
            return try await setup.client.response(for: request, endpoint: endpoint)
        } catch CachedClientError.httpStatus(let status, _, let body) {
            let seen = try JSONDecoder().decode(FixtureServer.SeenBody.self, from: body)
            Issue.record("status \(status): \(seen.reason ?? "") (\(seen.content_type))")
            return seen
        }
    }

    /// Nested objects as `deepObject`, sorted by key (a dictionary has no order of its own);
    /// arrays exploded, or as the fields say; `nil` left out; the form's percent-encoding.
    @Test func aFormWithNestedObjectsAndArraysIsSentExactly() async throws {
        let setup = try await Setup()
        let charge = Charge(
            amount: 2000, description: "Tea & cake, 50% off", card: Card(number: "4242 4242", expiry: Expiry(month: 12, year: 2030)),
            tags: ["a", "b c"], interval: .month, capture: false, metadata: ["order": "6735", "channel": "web", "batch": "7"],
            statementDescriptor: nil, expand: ["customer", "invoice"], channels: ["web", "app"], createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let expected =
            "amount=2000&description=Tea+%26+cake%2C+50%25+off&card%5Bexpiry%5D%5Bmonth%5D=12"
            + "&card%5Bexpiry%5D%5Byear%5D=2030&card%5Bnumber%5D=4242+4242&tags=a&tags=b+c&interval=month&capture=false"
            + "&metadata%5Bbatch%5D=7&metadata%5Bchannel%5D=web&metadata%5Border%5D=6735"
            + "&expand%5B0%5D=customer&expand%5B1%5D=invoice&channels=web%7Capp&createdAt=2023-11-14T22%3A13%3A20Z"
        try await setup.server.setCheckingRoute(
            setup.prefix + "/v1/charges", method: "POST",
            expect: .init(contentType: "application/x-www-form-urlencoded", body: Data(expected.utf8)))
        var request = EndpointRequest(method: "POST", path: "/charges")
        request.setFormBody(
            charge, fields: [BodyField("expand", style: .deepObject), BodyField("channels", style: .pipeDelimited)], isKey: false)

        let seen = try await Self.send(request, setup)

        #expect(seen.matched)
        #expect(Data(base64Encoded: seen.body_base64) == Data(expected.utf8))
    }

    @Test func aMultipartUploadIsSentExactly() async throws {
        let setup = try await Setup()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let upload = Upload(
            file: MultipartFile(data: png, filename: "cat \"1\".png", contentType: "image/png"), purpose: "avatar",
            meta: Meta(label: "é", sizes: [1, 2]),
            attachments: [
                MultipartFile(data: Data("one".utf8), filename: "a.txt", contentType: "text/plain"),
                MultipartFile(data: Data("two".utf8), filename: "b.txt"),
            ],
            note: nil)
        try await setup.server.setCheckingRoute(
            setup.prefix + "/v1/files", method: "POST",
            expect: .init(multipart: [
                .init(
                    headers: [#"Content-Disposition: form-data; name="file"; filename="cat %221%22.png""#, "Content-Type: image/png"],
                    body: png),
                .init(headers: [#"Content-Disposition: form-data; name="purpose""#], body: Data("avatar".utf8)),
                .init(
                    headers: [#"Content-Disposition: form-data; name="meta""#, "Content-Type: application/json"],
                    body: Data(#"{"label":"é","sizes":[1,2]}"#.utf8)),
                .init(
                    headers: [#"Content-Disposition: form-data; name="attachments"; filename="a.txt""#, "Content-Type: text/plain"],
                    body: Data("one".utf8)),
                .init(
                    headers: [
                        #"Content-Disposition: form-data; name="attachments"; filename="b.txt""#,
                        "Content-Type: application/octet-stream",
                    ],
                    body: Data("two".utf8)),
            ]))
        var first = EndpointRequest(method: "POST", path: "/files")
        first.setMultipartBody(upload, isKey: false)
        var second = EndpointRequest(method: "POST", path: "/files")
        second.setMultipartBody(upload, isKey: false)

        let seen = try await Self.send(first, setup)
        let again = try await Self.send(second, setup)

        #expect(seen.matched && again.matched)
        #expect(seen.content_type.hasPrefix("multipart/form-data; boundary=cachegen-"))
        #expect(seen.content_type != again.content_type, "each request has a boundary of its own")
    }

    @Test func bytesAreSentAsTheyAreWithTheirType() async throws {
        let setup = try await Setup()
        let bytes = Data((0...255).map { UInt8($0) })
        try await setup.server.setCheckingRoute(
            setup.prefix + "/v1/avatar", method: "PUT", expect: .init(contentType: "image/png", body: bytes))
        var request = EndpointRequest(method: "PUT", path: "/avatar")
        request.setDataBody(bytes, contentType: "image/png", isKey: false)

        let seen = try await Self.send(request, setup)

        #expect(seen.matched)
    }

    @Test func aDeleteCarriesItsJSONBody() async throws {
        let setup = try await Setup()
        let body = Data(#"{"ids":["1","2"]}"#.utf8)
        try await setup.server.setCheckingRoute(
            setup.prefix + "/v1/me/tracks", method: "DELETE", expect: .init(contentType: "application/json", body: body))
        var request = EndpointRequest(method: "DELETE", path: "/me/tracks")
        request.setJSONBody(["ids": ["1", "2"]], isKey: false)

        let seen = try await Self.send(request, setup)

        #expect(seen.matched)
        #expect(try await setup.requests().map(\.method) == ["DELETE"])
    }

    @Test func aMismatchIsReportedByTheServer() async throws {
        let setup = try await Setup()
        try await setup.server.setCheckingRoute(
            setup.prefix + "/v1/text", method: "POST", expect: .init(contentType: "text/plain", body: Data("hello".utf8)))
        var request = EndpointRequest(method: "POST", path: "/text")
        request.setTextBody("hullo", contentType: "text/plain", isKey: false)
        let endpoint = Endpoint(name: "Bodies.text", cache: nil)

        await #expect(throws: CachedClientError.self) {
            let _: FixtureServer.SeenBody = try await setup.client.response(for: request, endpoint: endpoint)
        }
    }
}
