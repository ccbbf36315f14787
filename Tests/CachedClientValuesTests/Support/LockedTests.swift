import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

@Suite("Locked")
struct LockedTests {
    @Test func concurrentUpdatesAreNeverLost() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 8_000)
    }

    @Test func aThrowingBodyKeepsItsChangesAndReleasesTheLock() {
        struct Failure: Error {}
        let value = Locked([1])
        #expect(throws: Failure.self) {
            try value.withLock { values in
                values.append(2)
                throw Failure()
            }
        }
        // The lock was released: taking it again does not deadlock.
        #expect(value.withLock { $0 } == [1, 2])
    }

    @Test func withLockReturnsTheBodysResult() {
        let value = Locked("abc")
        #expect(value.withLock { $0.count } == 3)
    }
}
