@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The golden generated from a Swagger 2.0 document (`swagger2-pets.yaml` with its overlay),
/// driven through the runtime: what goes on the wire is what the 2.0 document says.
@Suite struct GeneratedSwagger2ClientTests {
    func client(_ transport: StubTransport) -> CachedClient {
        CachedClient(baseURL: URL(string: "https://clinic.test/v1")!, store: MemoryCacheStore(), transport: transport, partition: "vet")
    }

    /// `collectionFormat`: csv (2.0's default) joined by commas, multi repeated, ssv by
    /// spaces, pipes by `|`; a top-level parameter by its `$ref`.
    @Test func queryArraysAsTheirCollectionFormatSays() async throws {
        let transport = StubTransport(response: .json(#"[{"id": 1, "pet": "Rex", "vet": null}]"#))
        let visits = LiveClinicVisitsRepository(client: client(transport))
        let listed = try await visits.listVisits(limit: 5, species: ["dog", "cat"], ids: [1, 2], words: ["a", "b"], vets: ["x", "y"])
        #expect(listed.value == [ClinicVisit(id: 1, pet: "Rex")])
        let query = try #require(transport.requests.first?.url.query)
        #expect(query == "limit=5&species=dog%2Ccat&ids=1&ids=2&words=a%20b&vets=x%7Cy")
    }

    /// A body parameter is a JSON body; a `$ref` to a top-level response reads the model; the
    /// overlay's invalidation holds.
    @Test func aBodyParameterIsTheJSONBody() async throws {
        let transport = StubTransport(response: .json(#"{"id": 2, "pet": "Tom", "vet": "Ann"}"#))
        let visits = LiveClinicVisitsRepository(client: client(transport))
        let made = try await visits.addVisit(body: ClinicVisit(id: 2, pet: "Tom", vet: "Ann"))
        #expect(made == ClinicVisit(id: 2, pet: "Tom", vet: "Ann"))
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST" && request.url.path == "/v1/visits")
        #expect(request.headers["Content-Type"] == "application/json")
        let sent = try JSONDecoder().decode(ClinicVisit.self, from: try #require(request.body))
        #expect(sent == made)
    }

    /// Form parameters: a file makes a multipart body, other fields a URL-encoded form whose
    /// array is joined as its collectionFormat says; a `type: file` response is bytes.
    @Test func formParametersAndFiles() async throws {
        let transport = StubTransport(response: HTTPResponse(statusCode: 204))
        let xrays = LiveClinicXraysRepository(client: client(transport))
        try await xrays.uploadXray(id: 3, body: ClinicUploadXrayRequest(image: MultipartFile(data: Data("PNG".utf8), filename: "x.png", contentType: "image/png"), note: "left"))
        let upload = try #require(transport.requests.last)
        #expect(upload.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        let text = String(decoding: try #require(upload.body), as: UTF8.self)
        #expect(text.contains("Content-Disposition: form-data; name=\"image\"; filename=\"x.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n"))
        #expect(text.contains("Content-Disposition: form-data; name=\"note\"\r\n\r\nleft\r\n"))

        let visits = LiveClinicVisitsRepository(client: client(transport))
        try await visits.setNotes(id: 3, body: ClinicSetNotesRequest(text: "ok", labels: ["a", "b"]))
        let form = try #require(transport.requests.last)
        #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(String(decoding: try #require(form.body), as: UTF8.self) == "text=ok&labels=a%7Cb")

        transport.respond { _ in HTTPResponse(statusCode: 200, headers: ["Content-Type": "image/png"], body: Data([1, 2, 3])) }
        let image = try await xrays.getXray(id: 3)
        #expect(image.value == Data([1, 2, 3]))
        #expect(transport.requests.last?.headers["Accept"] == "image/png")
    }
}
