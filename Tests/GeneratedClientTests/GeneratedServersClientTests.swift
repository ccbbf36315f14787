@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The golden generated from `servers.openapi.yaml` (operations served elsewhere, as Box's
/// uploads and downloads are) driven through the runtime: each call goes to its own server,
/// the others to the client's base URL, and the app's headers go with every one.
@Suite struct GeneratedServersClientTests {
    @Test func eachCallGoesToItsOperationsServer() async throws {
        let transport = StubTransport(response: .json(#"{"id": "f1"}"#))
        let client = CachedClient(
            baseURL: URL(string: "https://staging.drive.test/2.0/")!, store: MemoryCacheStore(), transport: transport,
            partition: "me", headers: { ["Authorization": "Bearer t"] })
        let files = LiveDriveFilesRepository(client: client)
        _ = try await files.getFile(id: "f1")
        _ = try await files.uploadFile(body: Data("bytes".utf8))
        _ = try await files.getUploadSession(session: "s1")
        transport.respond { _ in HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/octet-stream"], body: Data([1])) }
        _ = try await files.downloadFile(id: "f1")
        #expect(
            transport.requests.map(\.url.absoluteString) == [
                "https://staging.drive.test/2.0/files/f1",
                "https://upload.drive.test/2.0/files/content",
                "https://upload.drive.test/2.0/upload_sessions/s1",
                "https://dl.drive.test/files/f1/content",
            ])
        #expect(transport.requests.allSatisfy { $0.headers["Authorization"] == "Bearer t" })
    }
}
