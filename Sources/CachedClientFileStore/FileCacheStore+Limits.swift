import Foundation

// Limits and size tracking: `maxAge` and `maxBytes` are applied by sweeps in the background,
// which also learn the running count behind `totalSize()` and `entryCount()` (see `Sweeper`).
extension FileCacheStore {
    /// Writes between two sweeps when limits are set, to catch drift and other processes' writes.
    package static let sweepEveryWrites = 1_000
    /// Time between two sweeps when limits are set.
    package static let sweepInterval: TimeInterval = 3_600
    /// A temporary file older than this (by the real clock) was left by a crashed writer.
    package static let abandonedFileAge: TimeInterval = 600
    /// A read refreshes the last-use date only when it is at least this old, sparing a
    /// metadata write (`futimens`) on most reads: with many entries nearly every read would
    /// otherwise find its file's date older than a finer granularity.
    ///
    /// Coarse on purpose. Least-recently-used eviction needs only the order of uses to the
    /// hour, and `maxAge` loses nothing: reads judge it by the entry's stored date, which for
    /// what `CachedClient` writes (the answer's time) is no later than the file's write, so
    /// a sweep that drops a file untouched for longer than `maxAge` drops only what a read
    /// would refuse anyway.
    package static let touchGranularity: TimeInterval = 3_600

    /// The bytes of all entry files, headers included; the first call after opening walks
    /// the entries once, later ones are answered from memory.
    public func totalSize() async throws -> Int {
        await sweeper.usage().bytes
    }

    /// The number of entries; counted like `totalSize()`.
    public func entryCount() async throws -> Int {
        await sweeper.usage().count
    }

    /// Applies `maxAge` and `maxBytes` now and recounts the store; for moments an app has
    /// time to spare, such as moving to the background. Waits for a running sweep first.
    public func trim() async {
        await sweeper.trim()
    }

    /// Waits for a sweep started by a write, so tests can look at its result.
    package func waitForSweep() async {
        await sweeper.waitForSweep()
    }
}
