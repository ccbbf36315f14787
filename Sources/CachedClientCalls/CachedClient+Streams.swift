import CachedClientHTTP
@_spi(Generated) import CachedClientValues
import Foundation

// Streams and pages: each public entry point hands the work to a type of its own
// (`UpdatesStream`, `EventStreamReader`, `LinkFollower`).
extension CachedClient {
    /// The cached value first (if one within `maxStale` exists), then the fresh one, so a screen
    /// shows something at once (see `UpdatesStream` for when it throws and when it ends).
    @_spi(Generated)
    public func updates<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> AsyncThrowingStream<CachedValue<T>, any Error> {
        UpdatesStream(client: self).updates(for: request, endpoint: endpoint, as: type)
    }

    /// The events of a streamed endpoint, each record decoded as `T`; never cached, sent only
    /// when the sequence is iterated (see `EventStreamReader` for connecting again).
    @_spi(Generated)
    public func eventStream<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, as type: T.Type = T.self
    ) -> EventStream<T> {
        var stream = EventStreamReader(sender: sender).events(for: request, endpoint: endpoint, as: type)
        // A `StreamedQuery` over this stream keeps its finished value through this client.
        stream.origin = StreamOrigin(client: self, request: request, endpoint: endpoint)
        return stream
    }

    /// The pages of an endpoint that pages by `Link` header, each a cached call, followed only
    /// under `baseURL` (see `LinkFollower`).
    @_spi(Generated)
    public func linkedPages<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, policy: CachePolicy? = nil, as type: T.Type = T.self
    ) -> CachedPages<T> {
        LinkFollower(client: self).pages(for: request, endpoint: endpoint, policy: policy, as: type)
    }
}
