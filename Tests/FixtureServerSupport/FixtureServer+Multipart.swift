import Foundation

extension FixtureServer {
    private struct MultipartEchoRoute: Encodable {
        var method: String
        var path: String
        var status: Int
        var multipart_echo = true
    }

    /// Answers `method path` from now on with the parts of the request's multipart body, as
    /// Python's MIME parser read them, in a multipart answer of the server's own boundary
    /// (`"multipart_echo"` in the server's routes).
    public func setMultipartEchoRoute(_ path: String, method: String = "POST", status: Int = 200) async throws {
        let route = MultipartEchoRoute(method: method, path: path, status: status)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }
}
