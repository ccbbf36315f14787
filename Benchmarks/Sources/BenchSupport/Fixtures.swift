@_spi(Generated) import CachedClientRuntime
import Foundation

/// A key built the way `CachedClient` builds one, for benchmarks that call a store directly.
public func benchKey(feed: String, page: Int, partition: String? = "user-1") -> CacheKey {
    var request = EndpointRequest(method: "GET", path: "/feeds/{feedId}/items")
    request.setPathParameter("feedId", feed)
    request.addQuery("page", page, isKey: true)
    return CacheKey(endpoint: benchEndpoint, request: request, baseURL: benchBaseURL, bodyDigest: nil, partition: partition)
}

/// An endpoint like the generated `FeedRepository.getItems`, for direct store calls.
@_spi(Generated) public let benchEndpoint = Endpoint(
    name: "FeedRepository.getItems",
    cache: CacheRule(ttl: 7 * 86_400, maxStale: 30 * 86_400),
    coding: JSONCoding(dates: .iso8601),
    shape: "bench")

/// Fills `store` through the real client path (`networkOnly` stores the answer), for the
/// keys `feedId`/`page` given, and returns once every entry has landed (the client writes
/// behind its calls).
public func fill(
    _ store: any CacheStore, body: Data, feeds: [String], pages: Range<Int>, partition: String? = "user-1"
) async throws {
    let client = CachedClient(baseURL: benchBaseURL, store: store, transport: FixedTransport(body: body), partition: partition)
    let repository = LiveFeedRepository(client: client)
    var filled = 0
    for feed in feeds {
        for page in pages {
            _ = try await repository.getItems(feedId: feed, page: page, policy: .networkOnly)
            filled += 1
            if filled.isMultiple(of: 1_000) { await client.flush() }  // 100,000 pending writes would hold 100,000 bodies
        }
    }
    await client.flush()
}

/// A repository whose client never reaches the network, over `store`.
///
/// `memoryCacheLimit` is the client's in-memory layer of decoded values; 0 (the default
/// here) turns it off, so that a hit measures the store, its read and the decode.
public func offlineRepository(
    _ store: any CacheStore, partition: String? = "user-1", memoryCacheLimit: Int = 0
) -> LiveFeedRepository {
    LiveFeedRepository(client: CachedClient(
        baseURL: benchBaseURL, store: store, transport: UnreachableTransport(), partition: partition,
        memoryCacheLimit: memoryCacheLimit))
}

/// Nanoseconds between two instants, for paired measurements.
public func nanoseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Int {
    let (seconds, attoseconds) = (end - start).components
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
}

/// Runs `a` and `b` once each, in alternating order (`a` first on even iterations), and
/// returns their times in nanoseconds: both sides of a ratio measured in the same
/// iteration, so that changes in machine load between benchmarks cannot skew the ratio.
///
/// `afterA` runs right after `a`, untimed: for work `a` leaves running in the background
/// (the client's write-behind), which must not land in `b`'s time when `b` comes next.
public func paired(
    _ iteration: Int, _ a: () async throws -> Void, _ b: () async throws -> Void,
    afterA: () async -> Void = {}
) async rethrows -> (a: Int, b: Int) {
    let clock = ContinuousClock()
    if iteration.isMultiple(of: 2) {
        let start = clock.now
        try await a()
        let middle = clock.now
        await afterA()
        let resumed = clock.now
        try await b()
        let end = clock.now
        return (nanoseconds(from: start, to: middle), nanoseconds(from: resumed, to: end))
    } else {
        let start = clock.now
        try await b()
        let middle = clock.now
        try await a()
        let end = clock.now
        await afterA()
        return (nanoseconds(from: middle, to: end), nanoseconds(from: start, to: middle))
    }
}
