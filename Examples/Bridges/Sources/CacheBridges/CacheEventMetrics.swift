import CachedClientRuntime
import Metrics

/// The cache's events as swift-metrics counters: `cache_events_total` with dimensions `kind`
/// (hit, miss, stale, fallback, error) and `endpoint`, so a dashboard shows the hit rate per
/// endpoint and how often users were served offline. Store, evict and revalidated events are
/// not counted; add their kinds to `counted` to count them too.
public func countCacheEvents(
    counted: Set<CacheEvent.Kind> = [.hit, .miss, .stale, .fallback, .error]
) -> @Sendable (CacheEvent) -> Void {
    { event in
        guard counted.contains(event.kind) else { return }
        Counter(label: "cache_events_total", dimensions: [("kind", event.kind.rawValue), ("endpoint", event.endpoint)])
            .increment()
    }
}
