import Foundation

extension FileCacheStore {
    /// The running count and the sweep bookkeeping, kept between calls under one lock.
    struct State {
        /// The running count; `nil` until the first sweep.
        var usage: Usage?
        /// The running sweep, if any; there is never more than one.
        var sweep: Task<Void, Never>?
        /// This process's changes while a sweep runs, added to the sweep's count when it ends.
        var changesDuringSweep = Usage()
        /// A folder was removed while a sweep ran, so its count cannot be trusted.
        var bulkRemovalDuringSweep = false
        /// Writes since the last sweep ended.
        var writesSinceSweep = 0
        /// When the last sweep ran, by the store's clock.
        var lastSweep: Date?
    }
}
