@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// Hosts that answered 429 with `Retry-After`, and until when: other calls to them wait
/// (or answer from the cache) instead of adding to the storm.
package final class HostBackoff: Sendable {
    private let hosts = Locked<[String: Date]>([:])

    package init() {}

    /// Until when `host` asked to be left alone, if that is after `now`.
    package func blocked(_ host: String, at now: Date) -> Date? {
        hosts.withLock { hosts in
            guard let until = hosts[host] else { return nil }
            if until > now { return until }
            hosts[host] = nil
            return nil
        }
    }

    /// Records that `host` asked to be left alone until `until` (the later date wins).
    package func block(_ host: String, until: Date) {
        hosts.withLock { hosts in
            if let existing = hosts[host], existing >= until { return }
            hosts[host] = until
        }
    }
}
