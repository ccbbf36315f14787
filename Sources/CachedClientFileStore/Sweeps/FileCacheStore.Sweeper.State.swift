import Foundation

extension FileCacheStore.Sweeper {
    /// The running count and the sweep bookkeeping, kept between calls under one lock.
    package struct State {
        /// The running count; `nil` until the first sweep.
        package var usage: FileCacheStore.Usage?
        /// The running sweep, if any; there is never more than one.
        package var sweep: Task<Void, Never>?
        /// This process's changes while a sweep runs, added to the sweep's count when it ends.
        package var changesDuringSweep = FileCacheStore.Usage()
        /// A folder was removed while a sweep ran, so its count cannot be trusted.
        package var bulkRemovalDuringSweep = false
        /// Writes since the last sweep ended.
        package var writesSinceSweep = 0
        /// When the last sweep ran, by the store's clock.
        package var lastSweep: Date?
    }
}
