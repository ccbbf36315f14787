import Foundation

@_spi(RuntimeLayers) import CachedClientValues

/// Collects events for assertions.
package final class EventLog: Sendable {
    package init() {}

    private let events = Locked<[CacheEvent]>([])

    package var all: [CacheEvent] { events.withLock { $0 } }
    package var kinds: [CacheEvent.Kind] { all.map(\.kind) }

    package var record: @Sendable (CacheEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }
}
