@_spi(Generated) import CachedClientRuntime
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The child process of the offline-writes tests (`OfflineWritesIntegrationTests`): a
/// client over a `FileCacheStore` that queues mutations and exits, or sends one and is killed
/// while it waits for the answer.
enum OfflineFixture {
    static let endpoint = Endpoint(name: "Notes.create", cache: nil, offline: .queue)

    /// A transport with no network.
    struct NoNetwork: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw URLError(.notConnectedToInternet) }
    }

    static func request(_ path: String, text: String) -> EndpointRequest {
        var request = EndpointRequest(method: "POST", path: path)
        request.setJSONBody(["text": text], isKey: false)
        return request
    }

    /// Queues `count` mutations (`m0`, `m1`, …) with no network, prints `queued <count>` and exits.
    static func queue(directory: String, baseURL: String, path: String, count: Int) async throws {
        let client = try client(directory: directory, baseURL: baseURL, transport: NoNetwork())
        for index in 0..<count {
            let result = try await client.queueableResponse(
                for: request(path, text: "m\(index)"), endpoint: endpoint, as: [String: String].self)
            guard result.queuedID != nil else { throw URLError(.unknown) }
        }
        say("queued \(count)")
    }

    /// Sends one mutation (`killed`) over the network and prints what came back; the test
    /// kills the process while the server holds the answer.
    static func send(directory: String, baseURL: String, path: String) async throws {
        let client = try client(directory: directory, baseURL: baseURL, transport: URLSessionTransport())
        say("sending")
        let result = try await client.queueableResponse(for: request(path, text: "killed"), endpoint: endpoint, as: [String: String].self)
        say(result.value == nil ? "queued" : "sent")
    }

    /// A line on standard output, written at once (`print` is buffered when it goes to a pipe).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func client(directory: String, baseURL: String, transport: any HTTPTransport) throws -> CachedClient {
        guard let url = URL(string: baseURL) else { throw URLError(.badURL) }
        return CachedClient(
            baseURL: url, store: try FileCacheStore(directory: URL(fileURLWithPath: directory, isDirectory: true)),
            transport: transport, partition: "user-1", retry: .none, offline: OfflineReplay(replaysAtLaunch: false))
    }
}
