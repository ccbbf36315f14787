@_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// The store's limits: keeps the running byte and entry count, decides when a sweep is
    /// due and runs it, off the caller's path.
    ///
    /// The count is unknown when the store is opened (opening lists nothing) and is learnt by
    /// the first sweep: one walk over all entry files (`Folder.entryFiles(abandonedBefore:)`)
    /// that removes entries unused for longer than `maxAge`, then, if the total is over
    /// `maxBytes`, the least recently used entries until it is under 90% of `maxBytes` (so the
    /// next sweep is not one write away). "Used" means last read or written: the file's
    /// modification date is set on each write and on a read when it is `touchGranularity` or
    /// more old. Between sweeps the count is kept by this process's writes and removals;
    /// another process writing to the same folder makes it approximate until the next sweep.
    /// Entries a prefetch plan pins are counted and never evicted, even when they alone are
    /// over `maxBytes` (see `PrefetchPlans`).
    package struct Sweeper: Sendable {
        /// The size the store is trimmed back under; `nil` for no limit.
        private let maxBytes: Int?
        /// The age, in seconds, after which an entry unused since is evicted; `nil` for no limit.
        private let maxAge: TimeInterval?
        private let now: @Sendable () -> Date
        private let events: (@Sendable (CacheEvent) -> Void)?
        private let folder: Folder
        private let trash: Trash
        private let plans: PrefetchPlans
        /// The running count and the sweep bookkeeping.
        private let state = Locked(State())

        /// A sweeper of the store's entries; starts nothing.
        package init(
            maxBytes: Int?, maxAge: TimeInterval?, folder: Folder, trash: Trash, plans: PrefetchPlans,
            events: (@Sendable (CacheEvent) -> Void)?, now: @escaping @Sendable () -> Date
        ) {
            self.maxBytes = maxBytes
            self.maxAge = maxAge
            self.folder = folder
            self.trash = trash
            self.plans = plans
            self.events = events
            self.now = now
        }

        /// The count, clamped; the first call after opening sweeps to learn it.
        package func usage() async -> Usage {
            for _ in 0..<3 {
                if let usage = state.withLock({ $0.usage }) { return usage.clamped }
                await trim()
            }
            return state.withLock { $0.usage }?.clamped ?? Usage()
        }

        /// Sweeps now, after waiting for a running sweep.
        package func trim() async {
            while true {
                let (task, isOurs) = state.withLock { state -> (Task<Void, Never>, Bool) in
                    if let running = state.sweep { return (running, false) }
                    return (start(&state), true)
                }
                await task.value
                if isOurs { return }
            }
        }

        /// Waits for a running sweep, if there is one.
        package func waitForSweep() async {
            if let task = state.withLock({ $0.sweep }) { await task.value }
        }

        /// Adds a change this process made to the running count, and starts a sweep when a write
        /// makes one due.
        package func record(_ change: Usage, isWrite: Bool) {
            let now = isWrite ? self.now() : Date.distantPast
            state.withLock { state in
                state.usage?.add(change)
                if state.sweep != nil { state.changesDuringSweep.add(change) }
                guard isWrite else { return }
                state.writesSinceSweep += 1
                if needsSweep(state, now: now) { _ = start(&state) }
            }
        }

        /// Takes a folder removal off the running count: `removed` is what the folder held, `nil`
        /// when every entry went. A sweep running meanwhile does not keep its own count.
        package func recordBulkRemoval(_ removed: Usage?) {
            state.withLock { state in
                if let removed {
                    state.usage?.add(Usage(bytes: -removed.bytes, count: -removed.count))
                } else {
                    state.usage = Usage()
                }
                if state.sweep != nil { state.bulkRemovalDuringSweep = true }
            }
        }

        /// With limits set: when the count is unknown, over `maxBytes`, after
        /// `sweepEveryWrites` writes, or `sweepInterval` after the last sweep.
        private func needsSweep(_ state: State, now: Date) -> Bool {
            guard maxBytes != nil || maxAge != nil, state.sweep == nil else { return false }
            guard let usage = state.usage else { return true }
            if let maxBytes, usage.bytes > maxBytes { return true }
            if state.writesSinceSweep >= FileCacheStore.sweepEveryWrites { return true }
            if maxAge != nil {
                guard let last = state.lastSweep else { return true }
                return now.timeIntervalSince(last) >= FileCacheStore.sweepInterval
            }
            return false
        }

        /// Starts a sweep in a detached background-priority task, off the caller's path; called
        /// with the state locked so only one runs.
        private func start(_ state: inout State) -> Task<Void, Never> {
            state.changesDuringSweep = Usage()
            state.bulkRemovalDuringSweep = false
            let task = Task.detached(priority: .background) { [self] in self.sweep() }
            state.sweep = task
            return task
        }

        /// One walk over every entry file: drops abandoned temporary files, entries unused for
        /// longer than `maxAge`, then least recently used entries while over `maxBytes`.
        private func sweep() {
            let now = self.now()
            try? trash.deleteAll()
            let files = folder.entryFiles(abandonedBefore: Date().timeIntervalSince1970 - FileCacheStore.abandonedFileAge)
            // A `Double` holds any total: a few sparse files (tmpfs, XFS, btrfs) can claim exabytes
            // each, past `Int.max`, and must all go when over `maxBytes`. Exact up to 2^53 bytes
            // (8 PiB), beyond any real cache.
            var bytes = files.reduce(0.0) { $0 + Double($1.size) }
            var count = files.count
            var kept: [EntryFile] = []
            kept.reserveCapacity(files.count)
            // Entries a prefetch plan pins are counted, never evicted.
            let pinned = plans.pinnedPaths()
            if let maxAge {
                let cutoff = now.timeIntervalSince1970 - maxAge
                for file in files {
                    if file.lastUse < cutoff, !pinned.contains(file.path),
                        evict(file, now: now, reason: "evicted: unused for longer than maxAge")
                    {
                        bytes -= Double(file.size)
                        count -= 1
                    } else {
                        kept.append(file)
                    }
                }
            } else {
                kept = files
            }
            if let maxBytes, bytes > Double(maxBytes) {
                let goal = Double(maxBytes - maxBytes / 10)
                kept.sort { ($0.lastUse, $0.path) < ($1.lastUse, $1.path) }
                for file in kept where !pinned.contains(file.path) {
                    guard bytes > goal else { break }
                    if evict(file, now: now, reason: "evicted: over maxBytes") {
                        bytes -= Double(file.size)
                        count -= 1
                    }
                }
            }
            state.withLock { state in
                if state.bulkRemovalDuringSweep {
                    state.usage = nil
                } else {
                    var usage = Usage(bytes: bytes < 0x1p63 ? Int(max(0, bytes)) : .max, count: count)
                    usage.add(state.changesDuringSweep)
                    state.usage = usage
                }
                state.changesDuringSweep = Usage()
                state.bulkRemovalDuringSweep = false
                state.writesSinceSweep = 0
                state.lastSweep = now
                state.sweep = nil
            }
        }

        /// Removes a file the sweep chose, unless it changed since the walk; reports it.
        private func evict(_ file: EntryFile, now: Date, reason: String) -> Bool {
            guard let info = try? POSIX.status(atPath: file.path), info.size == file.size,
                info.modificationTime == file.lastUse
            else { return false }
            let header = events == nil ? nil : Self.readHeader(file.path)
            guard (try? POSIX.removeFile(file.path)) != nil else { return false }
            events?(.evicted(
                endpoint: header?.endpoint ?? "", digest: file.name,
                age: header.map { now.timeIntervalSince($0.date) }, message: reason))
            return true
        }

        /// The endpoint name and stored date of an entry file, for naming it in an event
        /// without reading (or checking) the whole file.
        private static func readHeader(_ path: String) -> (endpoint: String, date: Date)? {
            let header = try? POSIX.readPrefix(of: path, capacity: CacheFileFormat.headerPrefixSize) { prefix in
                prefix.isEmpty ? nil : CacheFileFormat.header(of: prefix)
            }
            return header ?? nil
        }
    }
}
