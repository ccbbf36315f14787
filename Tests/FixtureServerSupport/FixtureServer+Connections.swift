import CachedClientHTTP
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FixtureServer {
    /// What the server says of its connections: how many that sent a request (other than a
    /// control one) are open now, and how many it accepted in all.
    public struct Connections: Decodable, Sendable {
        /// Still open.
        public var open: Int
        /// Accepted since the server started.
        public var accepted: Int
    }

    /// The server's connections, once at most `count` are open (it waits for them, up to 10
    /// seconds, so a test never sleeps): whether a client closed what it left.
    public func connections(openAtMost count: Int) async throws -> Connections {
        var components = URLComponents(url: baseURL.appending(path: "__control/connections"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "open", value: String(count))]
        guard let url = components?.url else { throw URLError(.badURL) }
        let response = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: url))
        return try JSONDecoder().decode(Connections.self, from: response.body)
    }
}
