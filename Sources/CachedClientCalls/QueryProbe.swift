import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// Which cached calls one fetch of a `CachedQuery` made, told by
/// `CachedClient.value(for:endpoint:policy:as:)` through a task-local value.
///
/// A query runs any async function (a generated repository method, a mock's handler, an
/// app's own wrapper around several calls); the calls that reach a client say which client,
/// key and rule they used and what they saw when they started. So a query over a live
/// repository knows which entries it shows without generated code telling it, and a query
/// over a mock simply records nothing. Outside a query the task-local is `nil` and a call
/// pays one task-local read.
package final class QueryProbe: Sendable {
    /// The probe of the query fetch running in this task, if any.
    @TaskLocal package static var current: QueryProbe?

    /// One cached call a fetch made, with the state it started under.
    package struct Record: Sendable {
        package let client: CachedClient
        package let key: CacheKey
        package let rule: CacheRule
        /// The client's removal generation when the call started.
        package let generation: UInt64
        /// The client's partition switches when the call started.
        package let partitionSwitches: UInt64
        /// The store's `removalCount` when the call started (or when the query last checked).
        package var storeRemovals: UInt64
        /// What the server said of the answer's freshness (`Cache-Control`, `Expires`, `Age`),
        /// for `ttl: "server"`: with the answer's date, what `CachedQuery.isStale` decides by.
        package var freshness: ServerFreshness? = nil
    }

    /// A call of the fetch that answered from the cache at a transient failure (its first
    /// attempt: a stored value was at hand), with how its endpoint may be retried. The query
    /// goes on retrying in the background and shows the fresh value when it comes.
    package struct Fallback: Sendable {
        /// Retries the endpoint's rule (or the client's policy) allows.
        package let retries: Int
        /// The client's policy: the backoff between attempts and the injected sleep.
        package let policy: RetryPolicy
        /// How long the host asked to be left alone (a 429's `Retry-After`) at the fallback.
        package let hostWait: Duration

        /// The wait before background retry `retry` (0 for the first): the backoff, or what the
        /// host asked for when that is longer.
        package func delay(beforeRetry retry: Int) -> Duration {
            let backoff = policy.backoff(beforeRetry: retry)
            return retry == 0 ? max(backoff, hostWait) : backoff
        }
    }

    private let state = Locked<[Record]>([])
    private let fallbackState = Locked<Fallback?>(nil)
    /// For `PrefetchCall`: calls are recorded here and not sent (`capture(_:endpoint:)`).
    package let capturesCalls: Bool
    private let captured = Locked<(EndpointRequest, Endpoint)?>(nil)

    /// A probe of a live query's fetch, or (`capturingCalls`) of a `PrefetchCall` being made.
    package init(capturingCalls: Bool = false) {
        capturesCalls = capturingCalls
    }

    /// Keeps the first call made under a capturing probe and ends it with an error, so that
    /// nothing is sent (`PrefetchCall.init(_:)`).
    package func capture(_ request: EndpointRequest, endpoint: Endpoint) throws -> Never {
        captured.withLock { if $0 == nil { $0 = (request, endpoint) } }
        throw CancellationError()
    }

    /// The call a capturing probe kept.
    package var capturedCall: (EndpointRequest, Endpoint)? {
        captured.withLock { $0 }
    }

    /// Captures the call when the task runs under a capturing probe; for the entry points of
    /// uncached calls (mutations), which must never be sent by `PrefetchCall.init(_:)`.
    package static func captureIfCapturing(_ request: EndpointRequest, endpoint: Endpoint) throws {
        if let probe = current, probe.capturesCalls { try probe.capture(request, endpoint: endpoint) }
    }

    /// Called by the client when a call under this probe fell back at a transient failure;
    /// the first one counts.
    package func recordFallback(_ fallback: Fallback) {
        fallbackState.withLock { if $0 == nil { $0 = fallback } }
    }

    /// The fallback at a transient failure of this fetch, if any.
    package var fallback: Fallback? {
        fallbackState.withLock { $0 }
    }

    /// Called by the client for each cached call made under this probe.
    package func record(_ record: Record) {
        state.withLock { records in
            if !records.contains(where: { $0.client === record.client && $0.key == record.key }) { records.append(record) }
        }
    }

    /// Called by the client when a call under this probe answers: what the server said of the
    /// answer's freshness.
    package func recordFreshness(_ freshness: ServerFreshness?, of client: CachedClient, _ key: CacheKey) {
        state.withLock { records in
            guard let index = records.firstIndex(where: { $0.client === client && $0.key == key }) else { return }
            records[index].freshness = freshness
        }
    }

    /// The calls recorded so far, in the order they started.
    package var records: [Record] {
        state.withLock { $0 }
    }
}
