import Foundation
import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// An event's log line.
@Suite("CacheEvent")
struct CacheEventTests {
    @Test func theLogLineGivesTheAgeInWholeSeconds() {
        let event = CacheEvent(kind: .hit, endpoint: "Accounts.get", key: "k", age: 12.9, message: "from memory")
        #expect(event.description == "hit Accounts.get key=k age=12s from memory")
        #expect(CacheEvent(kind: .miss, endpoint: "Accounts.get", key: "k").description == "miss Accounts.get key=k")
    }

    /// A store can hand back any date (a damaged row, another program's file), so the age of
    /// an event may be anything a `Double` holds; writing it to a log must never trap.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e19])
    func anAgeNoIntegerHoldsIsAQuestionMark(_ age: Double) {
        #expect(CacheEvent(kind: .stale, endpoint: "E", key: "k", age: age).description == "stale E key=k age=?")
    }
}
