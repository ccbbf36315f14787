import FixtureServerSupport
import Foundation
import StoreTestSupport

@_spi(Generated) import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The offline-writes doubles: a note model, a server that is reachable or not, and the
// endpoints and client the offline tests share.

package struct Note: Codable, Sendable, Equatable {
    package var id: String
    package var text: String

    package init(id: String, text: String) {
        self.id = id
        self.text = text
    }
}

/// A server that is reachable or not, answers by a script, and records every request.
package final class OfflineServer: HTTPTransport {
    package init() {}

    private let state = Locked<(online: Bool, requests: [HTTPRequest], answer: @Sendable (HTTPRequest) -> HTTPResponse)>(
        (false, [], { _ in HTTPResponse(statusCode: 201, body: Data(#"{"id":"n1","text":"hi"}"#.utf8)) }))

    package var online: Bool {
        get { state.withLock { $0.online } }
        set { state.withLock { $0.online = newValue } }
    }
    package var requests: [HTTPRequest] { state.withLock { $0.requests } }
    package func answer(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { state.withLock { $0.answer = answer } }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (online, answer) = state.withLock { state in
            if state.online { state.requests.append(request) }
            return (state.online, state.answer)
        }
        guard online else { throw URLError(.notConnectedToInternet) }
        return answer(request)
    }
}

package enum OfflineFixtures {
    package static let create = Endpoint(name: "Notes.create", cache: nil, offline: .queue)
    package static let plain = Endpoint(name: "Notes.createPlain", cache: nil)

    package static func request(_ text: String, path: String = "/notes") -> EndpointRequest {
        var request = EndpointRequest(method: "POST", path: path)
        request.setJSONBody(["text": text], isKey: false)
        return request
    }

    package static func client(
        _ server: OfflineServer, store: any CacheStore = MemoryCacheStore(), events: EventLog = EventLog(),
        replay: OfflineReplay = OfflineReplay(replaysAtLaunch: false),
        headers: @escaping @Sendable () async throws -> [String: String] = { [:] }
    ) -> CachedClient {
        CachedClient(
            baseURL: Fixtures.baseURL, store: store, transport: server, partition: "user-1", headers: headers, retry: .none,
            events: events.record, offline: replay)
    }

    package static func texts(_ requests: [HTTPRequest]) -> [String] {
        requests.compactMap { request in
            request.body.flatMap { try? JSONDecoder().decode([String: String].self, from: $0)["text"] }
        }
    }
}
