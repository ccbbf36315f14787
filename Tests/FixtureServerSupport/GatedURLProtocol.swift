import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocol` that answers `http://gated.invalid/<id>` and stops, on the session's own
/// queue, at a chosen moment of the answer until the test has cancelled the call: the window
/// in which a cancellation races the session handing the task its answer, hit on purpose
/// rather than by chance.
///
/// URLSession runs `startLoading` on its work queue, so while the protocol waits the session
/// can do nothing else; everything it tells its client after that (head, body, end or
/// failure) is handled on that queue, as a real response is. Every `URLSession` of a process
/// shares that queue on Linux, so a stop holds them all: release it from a thread, never from
/// a task that may need a session to run first.
///
/// Shared by `CachedClientIntegrationTests` and its child process `CancellationProbe`; not a product.
public final class GatedURLProtocol: URLProtocol {
    /// Where the answer stops.
    public enum Moment: String, CaseIterable, Sendable {
        /// Before the response's head: the caller waits for headers.
        case beforeHead
        /// After the head and half the body.
        case midBody
        /// After the whole body, before the end is reported: the response is being handled.
        case beforeEnd
        /// Before a connection failure is reported: the failure is being handled.
        case beforeFailure
    }

    /// One call's stop: the protocol signals `arrived`, then waits for `release` (a bounded
    /// wait, so that a canceller that never returns cannot keep it there forever).
    public final class Stop: @unchecked Sendable {
        /// Where the answer stops.
        public let moment: Moment
        /// The answer's body.
        public let body: Data
        /// Whether the body goes in two chunks (for a streamed task) or one.
        public let streamed: Bool
        /// Signalled when a request reaches the moment.
        public let arrived = DispatchSemaphore(value: 0)
        /// Signalled by the test to let the answer go on.
        public let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var requestCount = 0

        init(moment: Moment, body: Data, streamed: Bool) {
            self.moment = moment
            self.body = body
            self.streamed = streamed
        }

        /// How many requests reached the protocol for this stop.
        public var requests: Int { lock.withLock { requestCount } }

        fileprivate func count() {
            lock.withLock { requestCount += 1 }
        }

        /// Called by the protocol at the moment; returns when released or after `limit` seconds.
        fileprivate func hold(limit: Double) {
            arrived.signal()
            _ = release.wait(timeout: .now() + limit)
        }
    }

    /// How long a stop waits for the test before the answer goes on anyway.
    public static let holdLimit: Double = 5

    private static let lock = NSLock()
    nonisolated(unsafe) private static var stops: [String: Stop] = [:]

    /// A URL whose request stops at `moment` and answers `body` with status 200, in two
    /// chunks when `streamed` (the stop of `midBody` between them).
    public static func url(
        stoppingAt moment: Moment, body: Data = Data(#"{"id":"1","balance":10}"#.utf8), streamed: Bool = false
    ) -> (URL, Stop) {
        let id = UUID().uuidString.lowercased()
        let stop = Stop(moment: moment, body: body, streamed: streamed)
        lock.withLock { stops[id] = stop }
        return (URL(string: "http://gated.invalid/\(id)")!, stop)
    }

    /// A session whose requests to `gated.invalid` go to this protocol.
    public static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [GatedURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    override public class func canInit(with request: URLRequest) -> Bool {
        request.url?.host == "gated.invalid"
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override public func startLoading() {
        guard let url = request.url, let id = url.pathComponents.dropFirst().first,
              let stop = Self.lock.withLock({ Self.stops[id] }),
              let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        stop.count()
        if stop.moment == .beforeHead { stop.hold(limit: Self.holdLimit) }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        if stop.streamed {
            let half = stop.body.count / 2
            client?.urlProtocol(self, didLoad: stop.body.prefix(half))
            if stop.moment == .midBody { stop.hold(limit: Self.holdLimit) }
            client?.urlProtocol(self, didLoad: stop.body.dropFirst(half))
        } else {
            // A task with a completion handler keeps only the last chunk a custom protocol
            // loads (FoundationNetworking), so its body goes in one piece after the stop.
            if stop.moment == .midBody { stop.hold(limit: Self.holdLimit) }
            client?.urlProtocol(self, didLoad: stop.body)
        }
        switch stop.moment {
        case .beforeFailure:
            stop.hold(limit: Self.holdLimit)
            client?.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
        case .beforeEnd:
            stop.hold(limit: Self.holdLimit)
            client?.urlProtocolDidFinishLoading(self)
        case .beforeHead, .midBody:
            client?.urlProtocolDidFinishLoading(self)
        }
    }

    override public func stopLoading() {}
}
